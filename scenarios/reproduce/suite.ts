// The reproduction suite on disk: every claims file under scenarios/papers/<seed>/, and the
// selection `--only ID|PAPER` and `fast` make of it.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimScenarios, type Claim, type PaperClaims } from './claim.ts';
import { loadClaimsFile } from './claims-loader.ts';
import { InputError, didYouMean } from './scenario-adapter.ts';

export const PAPERS_DIR = fileURLToPath(new URL('../papers/', import.meta.url));
export const CLAIMS_FILE = 'claims.yaml';

/** Claims files, one per paper folder, in folder order. */
export function claimsFiles(papersDir: string = PAPERS_DIR): string[] {
  return readdirSync(papersDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(papersDir, d.name, CLAIMS_FILE)))
    .map((d) => join(papersDir, d.name, CLAIMS_FILE))
    .sort();
}

export function loadSuite(papersDir: string = PAPERS_DIR): PaperClaims[] {
  const papers = claimsFiles(papersDir).map(loadClaimsFile);
  const seen = new Map<string, string>();
  for (const paper of papers) {
    for (const claim of paper.claims) {
      const other = seen.get(claim.id);
      if (other)
        throw new InputError(`claim id '${claim.id}' is also used in ${other}`, {
          file: paper.file,
          line: claim.where.line,
          field: 'id',
        });
      seen.set(claim.id, paper.file);
    }
  }
  return papers;
}

/** The paper a claim belongs to, as `--only` names it: its folder (000) or its seed file. */
export function paperName(paper: PaperClaims): string {
  return basename(dirname(paper.file));
}

export interface Selection {
  only?: string;
  fastOnly?: boolean;
  /** Claim ids or scenario file names (fig8-alltoall-ig.yaml) to leave out. */
  skip?: string[];
}

export function selectClaims(papers: PaperClaims[], sel: Selection): Claim[] {
  let claims = papers.flatMap((p) => p.claims);
  if (sel.only !== undefined) {
    const only = sel.only;
    const paper = papers.find((p) => paperName(p) === only || p.seed === only);
    claims = paper ? paper.claims : claims.filter((c) => c.id === only);
    if (claims.length === 0) {
      const names = [...papers.map(paperName), ...papers.flatMap((p) => p.claims.map((c) => c.id))];
      const hint = didYouMean(only, names);
      throw new InputError(
        `no paper or claim '${only}'${hint ? ` (did you mean '${hint}'?)` : ''}; papers: ${papers.map(paperName).join(', ')}`,
        { field: '--only' },
      );
    }
  }
  if (sel.fastOnly) claims = claims.filter((c) => c.fast);
  if (sel.skip?.length) claims = withoutSkipped(papers, claims, sel.skip);
  return claims;
}

function withoutSkipped(papers: PaperClaims[], claims: Claim[], skip: string[]): Claim[] {
  const all = papers.flatMap((p) => p.claims);
  // A scenario file is named by its file name or with its paper's folder (000/fig8-alltoall-ig.yaml).
  const names = new Map<Claim, string[]>();
  for (const p of papers)
    for (const c of p.claims)
      names.set(
        c,
        claimScenarios(c).flatMap((f) => [basename(f), `${paperName(p)}/${basename(f)}`]),
      );
  const scenarioNames = (c: Claim): string[] => names.get(c) ?? [];
  const known = new Set([...all.map((c) => c.id), ...all.flatMap(scenarioNames)]);
  // A misspelt name would silently run what was meant to be left out.
  for (const name of skip) {
    if (known.has(name)) continue;
    const hint = didYouMean(name, [...known]);
    throw new InputError(`no claim or scenario file '${name}'${hint ? ` (did you mean '${hint}'?)` : ''}`, {
      field: '--skip',
    });
  }
  return claims.filter((c) => !skip.includes(c.id) && !scenarioNames(c).some((s) => skip.includes(s)));
}
