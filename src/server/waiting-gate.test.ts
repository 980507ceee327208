import { describe, expect, it } from 'vitest';
import { Unavailable } from './errors.ts';
import { WaitingGate } from './waiting-gate.ts';

const later = () => {
  let done = () => {};
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { promise, done };
};

describe('WaitingGate', () => {
  it('runs at most max at once and lets the others in, in arrival order', async () => {
    const gate = new WaitingGate(2, 1000);
    const started: number[] = [];
    const finish = [later(), later(), later(), later()];
    const runs = finish.map((f, i) =>
      gate.run(async () => {
        started.push(i);
        await f.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.waiting).toBe(2);
    finish[1]?.done();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    finish[0]?.done();
    finish[2]?.done();
    finish[3]?.done();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(gate.waiting).toBe(0);
  });

  it('answers Unavailable to a run that waited past maxWaitMs; a failing run gives its place back', async () => {
    const gate = new WaitingGate(1, 30, () => new Unavailable('busy', 2));
    const hold = later();
    const first = gate.run(() => hold.promise);
    const refused = gate.run(async () => 'never');
    await expect(refused).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });
    expect(gate.waiting).toBe(0);
    hold.done();
    await first;
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'free again')).toBe('free again');
  });
});
