import { describe, expect, it } from 'vitest';
import { Buffer, type Range } from '../../sim/node/buffer.ts';
import type { Rank } from '../../sim/node/rank-api.ts';
import { Content } from '../../sim/node/content.ts';
import type { OperationCall } from '../../algorithms/semantics.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import type { ArgsOf, OperationName } from '../../algorithms/operations.ts';
import { defaultCount } from '../../algorithms/collectives/semantics/vcounts.ts';
import type { GatherArgs } from '../../algorithms/collectives/args.ts';

// Semantics only need a rank's id, the communicator size and allocation.
function fakeRanks(n: number): Rank[] {
  let next = 0;
  return Array.from(
    { length: n },
    (_, id) =>
      ({
        id,
        size: n,
        alloc: (name: string, bytes: number) => new Buffer(next++, `r${id}.${name}`, bytes, id),
      }) as unknown as Rank,
  );
}

function prepare<Op extends OperationName>(operation: Op, n: number, call: OperationCall): Array<ArgsOf<Op>> {
  const s = catalogue.semanticsOf(operation);
  const ranks = fakeRanks(n);
  const args = ranks.map((r) => s.setup(r, call));
  ranks.forEach((r, i) => s.fill(r, args[i], call));
  return args;
}

const verify =
  <Op extends OperationName>(operation: Op, args: Array<ArgsOf<Op>>, call: OperationCall) =>
  () =>
    catalogue.semanticsOf(operation).verify(args, call);

/** What a correct algorithm does: dst[at..] = src[from..from+len). */
function put(dst: Range, at: number, src: Range, from: number, len: number): void {
  dst.buf.content.write(dst.offset + at, src.buf.content.slice(src.offset + from, len));
}

/** One wrong byte: byte `at` of dst comes from byte 0 of some other data. */
function corruptByte(dst: Range, at: number): void {
  dst.buf.content.write(dst.offset + at, Content.fresh(1, 'stray').slice(0, 1));
}

const call = (bytes: number, root = 0, params: OperationCall['params'] = {}, counts?: number[]): OperationCall =>
  counts ? { bytes, root, params, counts } : { bytes, root, params };

describe('operations', () => {
  it('registers every collective with its rooted flag', () => {
    const rooted = ['bcast', 'scatter', 'scatterv', 'gather', 'gatherv', 'reduce'];
    const unrooted = ['alltoall', 'alltoallv', 'allgather', 'allgatherv', 'allreduce', 'barrier'];
    for (const op of rooted) expect(catalogue.findOperation(op)?.rooted).toBe(true);
    for (const op of unrooted) expect(catalogue.findOperation(op)?.rooted).toBe(false);
    for (const op of [...rooted, ...unrooted]) expect(op in catalogue.parts.semantics).toBe(true);
  });
});

describe('bcast semantics', () => {
  const c = call(10, 2);
  const done = () => {
    const args = prepare('bcast', 4, c);
    args.forEach((a, r) => r !== 2 && put(a.buffer, 0, args[2].buffer, 0, 10));
    return args;
  };

  it('accepts the right result and starts each iteration from fresh input and empty outputs', () => {
    const args = done();
    expect(verify('bcast', args, c)).not.toThrow();
    expect(args[1].buffer.buf.content.equals(Content.uninitialised(10))).toBe(false);
    const ranks = fakeRanks(4);
    ranks.forEach((r, i) => catalogue.semanticsOf('bcast').fill(r, args[i], c));
    expect(args[1].buffer.buf.content.equals(Content.uninitialised(10))).toBe(true);
    expect(args[2].buffer.buf.content.equals(Content.fresh(10, 'r2.buffer'))).toBe(true);
  });

  it('catches one wrong byte on one rank', () => {
    const args = done();
    corruptByte(args[3].buffer, 7);
    expect(verify('bcast', args, c)).toThrow(/rank 3 buffer.*stray/);
  });

  it('catches a rank that received nothing', () => {
    const args = done();
    args[0].buffer.buf.content = Content.uninitialised(10);
    expect(verify('bcast', args, c)).toThrow(/rank 0 buffer.*uninitialised/);
  });

  it('rejects a root outside the communicator', () => {
    expect(() => prepare('bcast', 4, call(8, 4))).toThrow(/root 4 is outside the communicator of 4 ranks/);
    expect(() => prepare('bcast', 4, call(8, -1))).toThrow(/root -1/);
  });
});

describe('gather and gatherv semantics', () => {
  it('catches a missing block and a block in the wrong place', () => {
    const c = call(6, 1);
    const fresh = () => prepare('gather', 3, c);
    const gather = (args: GatherArgs[], skip = -1, swap = false) => {
      args.forEach((a, r) => {
        if (r === skip) return;
        const slot = swap && r < 2 ? 1 - r : r;
        put(args[1].recv!, slot * 6, a.send, 0, 6);
      });
      return args;
    };
    expect(verify('gather', gather(fresh()), c)).not.toThrow();
    expect(verify('gather', gather(fresh(), 2), c)).toThrow(/root 1 recv: block from rank 2 .*uninitialised/);
    expect(verify('gather', gather(fresh(), -1, true), c)).toThrow(/block from rank 0 .*r1\.send/);
  });

  it('catches a send buffer the algorithm overwrote', () => {
    const c = call(4, 0);
    const args = prepare('gather', 2, c);
    args.forEach((a, r) => put(args[0].recv!, r * 4, a.send, 0, 4));
    corruptByte(args[1].send, 0);
    expect(verify('gather', args, c)).toThrow(/rank 1 send \(an input, must be left unchanged\)/);
  });

  it('places gatherv blocks at the given displacements and leaves the gaps alone', () => {
    const c = call(0, 0, { displs: '10,0,4' }, [3, 2, 5]);
    const args = prepare('gatherv', 3, c);
    expect(args[0].recv!.bytes).toBe(13);
    expect(args[0].displs).toEqual([10, 0, 4]);
    args.forEach((a, r) => put(args[0].recv!, [10, 0, 4][r], a.send, 0, a.send.bytes));
    expect(verify('gatherv', args, c)).not.toThrow();
    corruptByte(args[0].recv!, 3);
    expect(verify('gatherv', args, c)).toThrow(/bytes outside every block were written/);
  });

  it('rejects counts of the wrong length, negative counts and overlapping receive blocks', () => {
    expect(() => prepare('gatherv', 3, call(0, 0, {}, [1, 2]))).toThrow(/gatherv: counts has 2 entries, expected 3/);
    expect(() => prepare('gatherv', 2, call(0, 0, {}, [1, -2]))).toThrow(/counts\[1\] must be a non-negative integer/);
    expect(() => prepare('gatherv', 2, call(0, 0, { displs: '0,2' }, [3, 3]))).toThrow(
      /params\.displs .*ranks 0 and 1 overlap/,
    );
    expect(() => prepare('gatherv', 2, call(0, 0, { displs: '0' }, [3, 3]))).toThrow(
      /params\.displs must list 2 non-negative integers/,
    );
    expect(() => prepare('allgatherv', 2, call(0, 0, { displs: '0,x' }, [3, 3]))).toThrow(/params\.displs/);
  });
});

describe('v-counts from bytes', () => {
  it('follow the documented rule, with empty blocks for every third rank', () => {
    expect([0, 1, 2, 3, 4, 5].map((r) => defaultCount(10, r))).toEqual([10, 6, 0, 10, 6, 0]);
    expect([0, 1, 2].map((r) => defaultCount(0, r))).toEqual([0, 0, 0]);
    const args = prepare('scatterv', 4, call(10, 3));
    expect(args[3].counts).toEqual([10, 6, 0, 10]);
    expect(args[3].displs).toEqual([0, 10, 16, 16]);
    expect(args[3].send!.bytes).toBe(26);
    expect(args[2].recv.bytes).toBe(0);
  });

  it('give alltoallv a matrix indexed [sender][receiver]', () => {
    const args = prepare('alltoallv', 3, call(0, 0, {}, [1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(args[1].sendCounts).toEqual([4, 5, 6]);
    expect(args[1].recvCounts).toEqual([2, 5, 8]);
    expect(args[1].recvDispls).toEqual([0, 2, 7]);
    expect(() => prepare('alltoallv', 3, call(0, 0, {}, [1, 2, 3]))).toThrow(
      /alltoallv: counts has 3 entries, expected 9/,
    );
  });
});

describe('alltoall semantics', () => {
  it('accepts the transpose and catches two swapped blocks', () => {
    const c = call(3);
    const run = (swap: boolean) => {
      const args = prepare('alltoall', 3, c);
      args.forEach((dst, j) =>
        args.forEach((src, i) => {
          const from = swap && j === 2 && i < 2 ? 1 - i : i;
          put(dst.recv, i * 3, args[from].send, j * 3, 3);
          void src;
        }),
      );
      return args;
    };
    expect(verify('alltoall', run(false), c)).not.toThrow();
    expect(verify('alltoall', run(true), c)).toThrow(/rank 2 recv: block from rank 0/);
  });
});

describe('allgatherv semantics', () => {
  it('requires every rank to hold every block', () => {
    const c = call(0, 0, {}, [2, 0, 3]);
    const args = prepare('allgatherv', 3, c);
    args.forEach((dst, j) =>
      args.forEach((src, i) => {
        if (!(j === 1 && i === 2)) put(dst.recv, dst.displs[i], src.send, 0, src.send.bytes);
      }),
    );
    expect(verify('allgatherv', args, c)).toThrow(/rank 1 recv: block from rank 2/);
  });
});

describe('reduce and allreduce semantics', () => {
  const reduceAt = (dst: Range, srcs: Range[], op: string) => {
    put(dst, 0, srcs[0], 0, dst.bytes);
    for (const s of srcs.slice(1)) dst.buf.content.reduceInto(dst.offset, s.buf.content.slice(s.offset, s.bytes), op);
  };

  it('accepts the reduction of every rank, in any order', () => {
    const c = call(8, 2, { op: 'max' });
    const args = prepare('reduce', 4, c);
    expect(args[0].op).toBe('max');
    reduceAt(
      args[2].recv!,
      [3, 1, 0, 2].map((r) => args[r].send),
      'max',
    );
    expect(verify('reduce', args, c)).not.toThrow();
  });

  it('catches a missing term, a doubled term and the wrong operator', () => {
    const c = call(8, 0);
    const attempt = (terms: number[], op = 'sum') => {
      const args = prepare('reduce', 3, c);
      reduceAt(
        args[0].recv!,
        terms.map((r) => args[r].send),
        op,
      );
      return verify('reduce', args, c);
    };
    expect(attempt([0, 1, 2])).not.toThrow();
    expect(attempt([0, 2])).toThrow(/root 0 recv: sum over all 3 ranks/);
    expect(attempt([0, 1, 2, 1])).toThrow(/sum over all 3 ranks/);
    expect(attempt([0, 1, 2], 'prod')).toThrow(/prod\(/);
  });

  it('checks every rank of an allreduce', () => {
    const c = call(5);
    const args = prepare('allreduce', 3, c);
    args.forEach((a, r) =>
      reduceAt(
        a.recv,
        (r === 1 ? [0, 1] : [0, 1, 2]).map((k) => args[k].send),
        'sum',
      ),
    );
    expect(verify('allreduce', args, c)).toThrow(/allreduce: rank 1 recv/);
  });

  it('rejects an unknown operator, naming the field', () => {
    expect(() => prepare('reduce', 2, call(4, 0, { op: 'avg' }))).toThrow(
      /reduce: params\.op must be one of sum, prod, max, min, band, bor, got "avg"/,
    );
  });
});

describe('bytes', () => {
  it('must be a non-negative integer', () => {
    expect(() => prepare('allgather', 2, call(-1))).toThrow(/allgather: bytes must be a non-negative integer, got -1/);
    expect(() => prepare('alltoall', 2, call(1.5))).toThrow(/bytes must be a non-negative integer/);
  });
});
