// LiMIC (Jin et al., ICPP 2005; used by MVAPICH2): the sender's kernel call records where its send
// buffer is (its address, length, mm and task; limic_get_info) and returns a descriptor; the
// receiver hands that descriptor to its own kernel call, which pins the sender's pages under the
// sender's mmap_sem (limic_get_pages: down_read, get_user_pages), copies them into the receive buffer
// with the receiver's core and releases them (LiMIC2 limic.c, LIMIC_TX and LIMIC_RX). There is no
// cookie and no permission check: the module trusts whatever descriptor it is given (seed 004 §6),
// so pinning is paid on every message, by the receiver, as with CMA.
import type { Program } from '../engine/program.ts';
import { describeRange, withinBuffer, type Range } from '../node/buffer.ts';
import { MechanismError } from '../node/errors.ts';
import type { Limic } from '../node/rank-api.ts';
import type { World } from '../node/world.ts';
import { RunState } from '../node/run-state.ts';
import { addressSpace } from './address-space.ts';
import { kernelCosts } from './kernel-costs.ts';
import { kernelCall, pinRangeUnderLock, syscall } from './kernel-steps.ts';

/** What limic_tx_init hands back: in the real module a user-space copy of the page list. */
export interface LimicDescriptor {
  readonly id: number;
  readonly owner: number;
  readonly data: Range;
}

interface DescriptorTable {
  next: number;
  live: Map<number, LimicDescriptor>;
}

const DESCRIPTORS = new RunState<DescriptorTable>('limic descriptors', () => ({ next: 1, live: new Map() }));

export function createLimic(world: World, me: number): Limic {
  const spec = world.node.spec;
  const table = world.stateOf(DESCRIPTORS);
  const present = (call: string): void => {
    if (!spec.kernel.mechanisms.limic)
      throw new MechanismError('limic', 'ENODEV', `${call}: this node has no LiMIC module (/dev/limic)`);
  };

  const calls = {
    *txInit(data: Range): Program<unknown> {
      present('limic_tx_init');
      if (!withinBuffer(data)) {
        throw new MechanismError(
          'limic',
          'EFAULT',
          `limic_tx_init: ${describeRange(data)} lies outside that buffer of ${data.buf.size} bytes`,
        );
      }
      yield* syscall(world, me, 'limic_tx_init');
      const descriptor: LimicDescriptor = { id: table.next++, owner: me, data };
      table.live.set(descriptor.id, descriptor);
      return descriptor;
    },

    *rx(descriptor: unknown, into: Range): Program<void> {
      present('limic_rx');
      yield* syscall(world, me, 'limic_rx');
      const d = descriptor as Partial<LimicDescriptor> | null;
      if (typeof d !== 'object' || d === null || typeof d.id !== 'number' || table.live.get(d.id) !== d) {
        throw new MechanismError(
          'limic',
          'EFAULT',
          `limic_rx: rank ${me} passed an invalid descriptor; LiMIC does not check descriptors, so the real module would dereference it and crash the kernel`,
        );
      }
      const { data } = d as LimicDescriptor;
      if (!withinBuffer(into)) {
        throw new MechanismError(
          'limic',
          'EFAULT',
          `limic_rx: receive range ${describeRange(into)} lies outside that buffer of ${into.buf.size} bytes`,
        );
      }
      // The copy moves what both sides have room for, as the module copies min(send, receive) bytes.
      const bytes = Math.min(data.bytes, into.bytes);
      // The sender's whole buffer is pinned (the descriptor's nr_pages), even a zero-byte receive's.
      yield* pinRangeUnderLock(world, me, addressSpace(world, d.owner!), data);
      if (bytes === 0) return;
      yield* world.node.copy(
        world.cores[me],
        { buf: data.buf, offset: data.offset, bytes },
        { buf: into.buf, offset: into.offset, bytes },
        {
          rank: me,
          label: `limic rx <-${data.buf.owner}`,
          kind: 'kernel-copy',
          routine: 'kernel',
          efficiency: kernelCosts(spec).kernelCopyEfficiency,
        },
      );
    },
  };
  // Each call holds the rank's thread from entry to return.
  return {
    txInit: (data) => kernelCall(world, me, calls.txInit(data)),
    rx: (descriptor, into) => kernelCall(world, me, calls.rx(descriptor, into)),
  };
}
