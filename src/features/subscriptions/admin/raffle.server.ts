import { createHash } from 'node:crypto';

/**
 * A campaign's raffle (decision 158): random through its seed (32 bytes from the operating
 * system's generator), and repeatable from it. The participants are taken in id order; a
 * Fisher–Yates shuffle driven by SHA-256(seed ‖ counter) picks the winners, each draw of a number
 * below `m` made uniform by rejecting the values past the largest multiple of `m`. The same seed
 * and the same participants always give the same winners, in the same order.
 */

/** 32-bit numbers from SHA-256 of the seed and a running counter. */
function numbers(seedHex: string): () => number {
  const seed = Buffer.from(seedHex, 'hex');
  let counter = 0;
  let block = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 4 > block.length) {
      const count = Buffer.alloc(8);
      count.writeBigUInt64BE(BigInt(counter++));
      block = createHash('sha256').update(seed).update(count).digest();
      at = 0;
    }
    const value = block.readUInt32BE(at);
    at += 4;
    return value;
  };
}

/** A uniform number in [0, m) (m ≤ 2^32). */
function below(next: () => number, m: number): number {
  const limit = Math.floor(2 ** 32 / m) * m;
  for (;;) {
    const value = next();
    if (value < limit) return value % m;
  }
}

/** The winners among `participantIds` (at most `count`), drawn from `seedHex`. */
export function drawWinners(
  seedHex: string,
  participantIds: readonly number[],
  count: number,
): number[] {
  if (!/^[0-9a-f]{64}$/.test(seedHex)) throw new Error('The seed is 32 bytes in hex.');
  const pool = [...new Set(participantIds)].sort((a, b) => a - b);
  const wanted = Math.min(count, pool.length);
  const next = numbers(seedHex);
  for (let i = 0; i < wanted; i++) {
    const j = i + below(next, pool.length - i);
    const picked = pool[j] as number;
    pool[j] = pool[i] as number;
    pool[i] = picked;
  }
  return pool.slice(0, wanted);
}

/** SHA-256 of the participants' `id:address` lines in id order: what a draw considered. */
export function participantsDigest(participants: readonly { id: number; email: string }[]): string {
  const lines = [...participants]
    .sort((a, b) => a.id - b.id)
    .map((p) => `${p.id}:${p.email.toLowerCase()}\n`)
    .join('');
  return createHash('sha256').update(lines).digest('hex');
}
