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
    this.marker.textContent = error.message;
    this.marker.title = error.message;
    if (error.field) this.marker.dataset.field = error.field;
    this.place();
  }

  /**
   * Puts the message on its line, after the line's text, where it hides nothing; when the line is
   * too long for that, under it.
   */
  private place(): void {
    if (!this.error?.line) return;
    const lineTop = 4 + (this.error.line - 1) * LINE_HEIGHT - this.textarea.scrollTop;
    const text = this.textarea.value.split('\n')[this.error.line - 1] ?? '';
    const gutter = this.gutter.offsetWidth;
    const after = gutter + 6 + (text.length + 2) * this.charWidth() - this.textarea.scrollLeft;
    const room = this.textarea.clientWidth + gutter - after;
    // Beside the text even if it must be cut short (the whole message is under the editor).
    const beside = room >= Math.min(140, this.marker.scrollWidth + 8);
    const top = beside ? lineTop : lineTop + LINE_HEIGHT;
    this.marker.style.top = `${top}px`;
    this.marker.style.left = `${beside ? after : gutter + 8}px`;
    this.marker.style.maxWidth = `${beside ? room - 4 : this.textarea.clientWidth - 12}px`;
    this.marker.classList.toggle('beside', beside);
    this.marker.style.visibility = top < 0 || top > this.textarea.clientHeight ? 'hidden' : 'visible';
  }

  private charWidthPx = 0;
  /** The width of one character of the monospace font the text area uses. */
  private charWidth(): number {
    if (this.charWidthPx > 0) return this.charWidthPx;
    const ctx = document.createElement('canvas').getContext('2d');
    if (!ctx) return 7.2;
    ctx.font = getComputedStyle(this.textarea).font;
    this.charWidthPx = ctx.measureText('0'.repeat(100)).width / 100 || 7.2;
    return this.charWidthPx;
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
