// Writes a calibrated MachineSpec as a machine file (docs/machine-format.md) that
// `intranode run --machine FILE` reads back: explicit caches and NUMA nodes, every number in the
// model's own unit, each with a comment naming where it came from: the measurement it was fitted
// to, the host detection, or the import default it still is.
import type { MachineSpec } from '../hardware/spec.ts';
import { NativeError } from './backend.ts';

/** Source of a spec field, by the names the fits use (`caches[L2].bandwidth`, `numaNodes[*].bandwidth`). */
export type SourceOf = (field: string) => string | undefined;

export function writeMachineFile(spec: MachineSpec, sourceOf: SourceOf, header: string[]): string {
  if ((spec.hosts ?? 1) > 1)
    throw new NativeError(`cannot write ${spec.name} as one machine file: it joins ${spec.hosts} hosts`);
  checkNumbering(spec);
  const guessed = new Set(spec.guessed);
  const note = (field: string, guessPath: string, detected: string) =>
    sourceOf(field) ??
    (guessed.has(guessPath) || [...guessed].some((g) => guessPath.startsWith(`${g}.`))
      ? 'estimate: import default (hardware/import-defaults.ts), not fitted'
      : detected);
  const lines: string[] = header.map((h) => `# ${h}`);
  lines.push(`name: ${JSON.stringify(spec.name)}`);
  lines.push(`description: ${JSON.stringify(spec.description)}`);
  lines.push('', 'packages:');
  for (const pkg of spec.packages) {
    const cores = spec.cores.filter((c) => c.package === pkg.id);
    lines.push(`  - model: ${JSON.stringify(pkg.model)}`);
    lines.push(`    cores: ${cores.length}`.padEnd(34) + '# detected');
    lines.push(`    threads: ${cores[0].threads}`.padEnd(34) + '# detected');
    const freqNote = note('cores.frequencyGHz', `cores[${cores[0].id}].frequencyGHz`, 'detected');
    lines.push(`    frequency: ${cores[0].frequencyGHz}GHz`.padEnd(34) + `# ${freqNote}`);
  }
  lines.push('', 'caches:');
  spec.caches.forEach((c, i) => {
    lines.push(`  - id: ${JSON.stringify(c.id)}`);
    lines.push(`    level: ${c.level}`);
    lines.push(
      `    size: ${c.sizeBytes}`.padEnd(34) + `# ${sourceOf(`caches[L${c.level}].size`) ?? 'detected'} (bytes)`,
    );
    lines.push(
      `    cores: [${c.cores.join(', ')}]`.padEnd(34) + `# ${sourceOf(`caches[${c.id}].cores`) ?? 'detected'}`,
    );
    lines.push(
      `    bandwidth: ${c.bandwidth}`.padEnd(34) +
        `# ${note(`caches[L${c.level}].bandwidth`, `caches[${i}].bandwidth`, 'detected')}`,
    );
    lines.push(
      `    latency: ${c.latencyNs}`.padEnd(34) +
        `# ${note(`caches[L${c.level}].latencyNs`, `caches[${i}].latencyNs`, 'detected')}`,
    );
    if (c.peerLatencyNs !== undefined)
      lines.push(
        `    peerLatency: ${c.peerLatencyNs}`.padEnd(34) +
          `# ${note(`caches[L${c.level}].peerLatencyNs`, `caches[${i}].peerLatencyNs`, 'detected')}`,
      );
    if (c.memorySide) lines.push('    memorySide: true');
    if (c.victim) lines.push('    victim: true');
  });
  lines.push('', 'numa:');
  spec.numaNodes.forEach((n, i) => {
    lines.push(`  - attach: ${n.attach}`);
    lines.push(
      `    cores: [${spec.cores
        .filter((c) => c.numa === n.id)
        .map((c) => c.id)
        .join(', ')}]`,
    );
    lines.push(`    memory: ${n.memoryBytes}`.padEnd(34) + '# detected (bytes)');
    lines.push(
      `    bandwidth: ${n.bandwidth}`.padEnd(34) +
        `# ${note('numaNodes[*].bandwidth', `numaNodes[${i}].bandwidth`, 'detected')}`,
    );
    lines.push(
      `    latency: ${n.latencyNs}`.padEnd(34) +
        `# ${note('numaNodes[*].latencyNs', `numaNodes[${i}].latencyNs`, 'detected')}`,
    );
    if (n.peerLatencyNs !== undefined)
      lines.push(
        `    peerLatency: ${n.peerLatencyNs}`.padEnd(34) +
          `# ${note(`numaNodes[${n.id}].peerLatencyNs`, `numaNodes[${i}].peerLatencyNs`, 'detected')}`,
      );
    lines.push(`    kind: ${n.kind}`);
    if (n.writeCost !== undefined)
      lines.push(
        `    writeCost: ${n.writeCost}`.padEnd(34) +
          `# ${note('numaNodes[*].writeCost', `numaNodes[${i}].writeCost`, 'detected')}`,
      );
  });
  if (spec.hubs.length > 0) {
    lines.push('', 'hubs:');
    for (const h of spec.hubs) lines.push(`  - id: ${h.id}`, `    description: ${JSON.stringify(h.description)}`);
  }
  if (spec.links.length > 0) {
    lines.push('', 'links:');
    spec.links.forEach((l, i) => {
      lines.push(`  - between: [${l.a}, ${l.b}]`, `    name: ${JSON.stringify(l.name)}`);
      lines.push(
        `    bandwidth: ${l.bandwidth}`.padEnd(34) +
          `# ${note('links.bandwidth', `links[${i}].bandwidth`, 'detected')}`,
      );
      lines.push(
        `    latency: ${l.latencyNs}`.padEnd(34) + `# ${note('links.latencyNs', `links[${i}].latencyNs`, 'detected')}`,
      );
    });
  }
  if (spec.ioBuses.length > 0) {
    lines.push('', 'ioBuses:');
    spec.ioBuses.forEach((b, i) => {
      lines.push(`  - id: ${JSON.stringify(b.id)}`, `    attach: ${b.attach}`);
      lines.push(`    bandwidth: ${b.bandwidth}`.padEnd(34) + `# ${note('io', `ioBuses[${i}].bandwidth`, 'detected')}`);
      const nics = spec.nics.filter((n) => n.bus === b.id);
      if (nics.length > 0) lines.push('    nics:');
      for (const n of nics) {
        const k = spec.nics.indexOf(n);
        lines.push(`      - id: ${JSON.stringify(n.id)}`, `        model: ${JSON.stringify(n.model)}`);
        lines.push(
          `        bandwidth: ${n.bandwidth}`.padEnd(34) + `# ${note('nic', `nics[${k}].bandwidth`, 'detected')}`,
        );
      }
    });
  }
  const k = spec.kernel;
  const mechanisms = (Object.keys(k.mechanisms) as (keyof typeof k.mechanisms)[]).filter((m) => k.mechanisms[m]);
  lines.push('', 'costs:');
  // Each cost constant written under its own name, with where its value came from.
  const cost = (key: keyof MachineSpec['costs']) => {
    const value = spec.costs[key];
    if (value !== undefined)
      lines.push(`  ${key}: ${value}`.padEnd(34) + `# ${note(`costs.${key}`, `costs.${key}`, 'detected')}`);
  };
  for (const key of [
    'copyBandwidth',
    'reduceBandwidth',
    'missConcurrency',
    'streamConcurrency',
    'claimConcurrency',
    'kernelStores',
    'memcpyNonTemporalShare',
  ] as const)
    cost(key);
  if (spec.costs.lineBytes !== undefined)
    lines.push(`  lineSize: ${spec.costs.lineBytes}`.padEnd(34) + '# detected (bytes)');
  lines.push('', 'kernel:');
  lines.push(`  version: ${JSON.stringify(k.version)}`.padEnd(34) + '# detected: uname');
  lines.push(
    `  mechanisms: [${mechanisms.join(', ')}]`.padEnd(34) + `# ${sourceOf('kernel.mechanisms') ?? 'detected: sysfs'}`,
  );
  lines.push(
    `  syscall: ${k.syscallNs}ns`.padEnd(34) + `# ${note('kernel.syscallNs', 'kernel.syscallNs', 'detected')}`,
  );
  lines.push(`  pageSize: ${k.pageBytes}`.padEnd(34) + `# ${note('kernel.pageBytes', 'kernel.pageBytes', 'detected')}`);
  lines.push(
    `  pinPerPage: ${k.pinPerPageNs}ns`.padEnd(34) +
      `# ${note('kernel.pinPerPageNs', 'kernel.pinPerPageNs', 'detected')}`,
  );
  lines.push(
    `  cmaLock: ${k.cmaLockMode}`.padEnd(34) + `# ${note('kernel.cmaLockMode', 'kernel.cmaLockMode', 'detected')}`,
  );
  const params = Object.entries(k.params);
  if (params.length > 0) {
    lines.push('  params:');
    for (const [name, v] of params)
      lines.push(`    ${name}: ${v}`.padEnd(34) + `# ${sourceOf(`kernel.params.${name}`) ?? 'detected'}`);
  }
  if (spec.measured?.oneCoreCopy !== undefined) {
    lines.push('', 'measured:');
    lines.push(
      `  oneCoreCopy: ${spec.measured.oneCoreCopy}`.padEnd(34) + `# ${sourceOf('measured.oneCoreCopy') ?? 'measured'}`,
    );
  }
  const guessedPaths = [...new Set(spec.guessed.flatMap((g) => filePath(spec, g)))];
  if (guessedPaths.length > 0) lines.push('', `guessed: [${guessedPaths.map((g) => JSON.stringify(g)).join(', ')}]`);
  return lines.join('\n') + '\n';
}

/** Where a `guessed` path of the MachineSpec sits in the file this module writes. */
function filePath(spec: MachineSpec, guess: string): string[] {
  const m = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(guess);
  const renames: Record<string, string> = { latencyNs: 'latency', frequencyGHz: 'frequency' };
  if (m) {
    const [, list, index, field] = m;
    const key = renames[field] ?? field;
    if (list === 'caches' && ['bandwidth', 'latency'].includes(key)) return [`caches[${index}].${key}`];
    if (list === 'numaNodes' && ['bandwidth', 'latency'].includes(key)) return [`numa[${index}].${key}`];
    if (list === 'ioBuses' && key === 'bandwidth') return [`ioBuses[${index}].bandwidth`];
    if (list === 'links' && ['bandwidth', 'latency'].includes(key)) return [`links[${index}].${key}`];
    if (list === 'cores' && key === 'frequency')
      return [`packages[${spec.cores[Number(index)]?.package ?? 0}].frequency`];
    if (list === 'nics' && key === 'bandwidth') {
      const nic = spec.nics[Number(index)];
      const bus = spec.ioBuses.findIndex((b) => b.id === nic?.bus);
      const j = spec.nics.filter((n) => n.bus === nic?.bus).indexOf(nic);
      return bus >= 0 ? [`ioBuses[${bus}].nics[${j}].bandwidth`] : [];
    }
    return [];
  }
  const kernel: Record<string, string> = {
    'kernel.syscallNs': 'kernel.syscall',
    'kernel.pinPerPageNs': 'kernel.pinPerPage',
    'kernel.pageBytes': 'kernel.pageSize',
    'kernel.cmaLockMode': 'kernel.cmaLock',
    'kernel.version': 'kernel.version',
  };
  if (guess in kernel) return [kernel[guess]];
  if (guess.startsWith('kernel.mechanisms')) return ['kernel.mechanisms'];
  if (guess.startsWith('costs.')) return [guess];
  return [];
}

/** The file format numbers cores from 0, package after package; a host numbered otherwise cannot be written. */
function checkNumbering(spec: MachineSpec): void {
  const expected = [...spec.cores].sort((a, b) => a.package - b.package || a.id - b.id);
  expected.forEach((c, i) => {
    if (c.id !== i)
      throw new NativeError(
        `cannot write a machine file for ${spec.name}: its cores are not numbered 0, 1, ... package after package (core ${c.id} is in position ${i}); the machine file format requires it`,
      );
  });
}
