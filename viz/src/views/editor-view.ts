// The scenario's YAML in a text area with line numbers; the loader's error is shown at its line,
// beside the text, as the user types.
import type { LocatedError } from '../protocol.ts';

const LINE_HEIGHT = 18;

export class EditorView {
  readonly element: HTMLElement;
  readonly textarea: HTMLTextAreaElement;
  private readonly gutter: HTMLElement;
  private readonly marker: HTMLElement;
  private readonly message: HTMLElement;
  private error: LocatedError | undefined;
  onChange: (text: string) => void = () => {};

  constructor(text: string) {
    this.element = document.createElement('div');
    this.element.className = 'editor';
    const body = document.createElement('div');
    body.className = 'editor-body';
    this.gutter = document.createElement('div');
    this.gutter.className = 'gutter';
    this.textarea = document.createElement('textarea');
    this.textarea.spellcheck = false;
    this.textarea.name = 'scenario';
    this.textarea.value = text;
    this.marker = document.createElement('div');
    this.marker.className = 'inline-error';
    this.marker.hidden = true;
    body.append(this.gutter, this.textarea, this.marker);
    this.message = document.createElement('div');
    this.message.className = 'editor-status';
    this.element.append(body, this.message);
    this.textarea.addEventListener('input', () => {
      this.renderGutter();
      this.onChange(this.textarea.value);
    });
    this.textarea.addEventListener('scroll', () => {
      this.gutter.scrollTop = this.textarea.scrollTop;
      this.place();
    });
    this.renderGutter();
  }

  get text(): string {
    return this.textarea.value;
  }

  set text(value: string) {
    this.textarea.value = value;
    this.renderGutter();
  }

  /** Shows the loader's error at its line (or under the text when it has none); undefined clears it. */
  showError(error: LocatedError | undefined): void {
    this.error = error;
    this.renderGutter();
    if (!error) {
      this.marker.hidden = true;
      this.message.textContent = 'scenario OK';
      this.message.className = 'editor-status ok';
      return;
    }
    const where = [error.line !== undefined ? `line ${error.line}` : '', error.field ? `(${error.field})` : '']
      .filter(Boolean)
      .join(' ');
    this.message.textContent = `${where ? `${where}: ` : ''}${error.message}`;
    this.message.className = 'editor-status bad';
    if (error.line === undefined) {
      this.marker.hidden = true;
      return;
    }
    this.marker.hidden = false;
    this.marker.dataset.line = String(error.line);
    this.marker.textContent = `${error.field ? `${error.field}: ` : ''}${error.message}`;
    this.place();
  }

  private place(): void {
    if (!this.error?.line) return;
    const top = 4 + this.error.line * LINE_HEIGHT - this.textarea.scrollTop;
    this.marker.style.top = `${top}px`;
    this.marker.style.visibility = top < 0 || top > this.textarea.clientHeight ? 'hidden' : 'visible';
  }

  private renderGutter(): void {
    const lines = this.textarea.value.split('\n').length;
    const bad = this.error?.line;
    const parts: string[] = [];
    for (let i = 1; i <= lines; i++)
      parts.push(i === bad ? `<span class="bad" data-line="${i}">${i}</span>` : String(i));
    this.gutter.innerHTML = parts.join('<br>');
    this.gutter.scrollTop = this.textarea.scrollTop;
  }
}
