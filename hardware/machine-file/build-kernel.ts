// Core costs and the kernel section of a machine file.

import { KERNEL_STORES, type CoreCosts, type KernelSpec } from '../spec.ts';
import { MECHANISMS } from '../validate.ts';
import { KERNEL_PARAMS } from '../kernel-params.ts';
import { didYouMean } from '../../common/input-error.ts';
import { ownEntry } from '../../common/own-key.ts';
import type { Origins } from './origins.ts';
import { readBandwidth, readSize, readTime } from './units.ts';
import type { MapReader } from '../../common/yaml/value.ts';

const COST_KEYS = [
  'copyBandwidth',
  'reduceBandwidth',
  'missConcurrency',
  'streamConcurrency',
  'claimConcurrency',
  'kernelStores',
  'memcpyNonTemporalShare',
  'lineSize',
] as const;
const KERNEL_KEYS = ['version', 'mechanisms', 'syscall', 'pageSize', 'pinPerPage', 'cmaLock', 'params'] as const;
const CMA_LOCK_MODES = ['exclusive', 'shared'] as const;

export function buildCosts(root: MapReader, origins: Origins): CoreCosts {
  const node = root.req('costs');
  const m = node.map(COST_KEYS);
  origins.set('costs', node);
  origins.set('costs.copyBandwidth', m.get('copyBandwidth'));
  origins.set('costs.reduceBandwidth', m.get('reduceBandwidth'));
  const costs: CoreCosts = {
    copyBandwidth: readBandwidth(m.req('copyBandwidth')),
    reduceBandwidth: readBandwidth(m.req('reduceBandwidth')),
  };
  const misses = m.get('missConcurrency');
  if (misses) {
    origins.set('costs.missConcurrency', misses);
    costs.missConcurrency = misses.integer(1);
  }
  const stream = m.get('streamConcurrency');
  if (stream) {
    origins.set('costs.streamConcurrency', stream);
    costs.streamConcurrency = stream.integer(1);
  }
  const claims = m.get('claimConcurrency');
  if (claims) {
    origins.set('costs.claimConcurrency', claims);
    costs.claimConcurrency = claims.number();
  }
  const kernelStores = m.get('kernelStores');
  if (kernelStores) {
    origins.set('costs.kernelStores', kernelStores);
    costs.kernelStores = kernelStores.oneOf(KERNEL_STORES);
  }
  const nonTemporal = m.get('memcpyNonTemporalShare');
  if (nonTemporal) {
    origins.set('costs.memcpyNonTemporalShare', nonTemporal);
    costs.memcpyNonTemporalShare = nonTemporal.number();
  }
  const line = m.get('lineSize');
  if (line) {
    origins.set('costs.lineBytes', line);
    costs.lineBytes = readSize(line);
  }
  return costs;
}

export function buildKernel(root: MapReader, origins: Origins): KernelSpec {
  const node = root.req('kernel');
  const m = node.map(KERNEL_KEYS);
  origins.set('kernel', node);

  const versionNode = m.req('version');
  // An unquoted 4.10 reads as the number 4.1: insist on a string so the version is what was meant.
  if (typeof versionNode.required('a kernel version') === 'number')
    versionNode.fail('quote the kernel version, e.g. "4.10" (unquoted, 4.10 reads as the number 4.1)');
  const version = versionNode.text();

  const mechanisms: KernelSpec['mechanisms'] = { cma: false, knem: false, xpmem: false, limic: false, ioat: false };
  for (const item of m.req('mechanisms').items()) {
    const name = item.oneOf(MECHANISMS);
    if (mechanisms[name]) item.fail(`mechanism '${name}' is listed twice`);
    mechanisms[name] = true;
  }

  const params: Record<string, number> = {};
  for (const [key, value] of m.get('params')?.entries() ?? []) {
    if (ownEntry(KERNEL_PARAMS, key) === undefined) {
      const known = Object.keys(KERNEL_PARAMS);
      const hint = didYouMean(key, known);
      value.fail(
        `unknown kernel parameter '${key}'${hint ? ` (did you mean '${hint}'?)` : ''}; known: ${known.join(', ')}`,
      );
    }
    // Its rule (kernel-params.ts) is checked with the rest of the machine, at this line.
    params[key] = value.number();
    origins.set(`kernel.params.${key}`, value);
  }

  origins.set('kernel.version', versionNode);
  origins.set('kernel.syscallNs', m.get('syscall'));
  origins.set('kernel.pageBytes', m.get('pageSize'));
  origins.set('kernel.pinPerPageNs', m.get('pinPerPage'));
  origins.set('kernel.cmaLockMode', m.get('cmaLock'));
  return {
    version,
    mechanisms,
    syscallNs: readTime(m.req('syscall')),
    pageBytes: readSize(m.req('pageSize')),
    pinPerPageNs: readTime(m.req('pinPerPage')),
    cmaLockMode: m.req('cmaLock').oneOf(CMA_LOCK_MODES),
    params,
  };
}
