import type { Database } from '../src/db/client.ts';
import type { FileStore } from '../src/server/file-store.ts';
import { type ImageAlt, type ImageKind, storeGeneratedImage } from './pictures/store.ts';
import { hashString } from './random.ts';

export interface ImageRequest {
  kind: ImageKind;
  /** Decides the picture; the same seed always gives the same image (and row). */
  seed: string;
  title?: string;
  alt: ImageAlt;
}

/**
 * Generated demo images, one per seed. Pictures are shared across language versions and sites by
 * choosing seeds without the site (a product family's picture, a page's teaser), which keeps the
 * number of distinct images near two thousand. `perKind` caps distinct images per kind (tests).
 */
export class ImagePool {
  private readonly ids = new Map<string, number>();
  private readonly order: number[] = [];
  private readonly kinds = new Map<ImageKind, number[]>();

  constructor(
    private readonly ctx: { db: Database; files: FileStore },
    private readonly options: { perKind?: number } = {},
  ) {}

  async get(request: ImageRequest): Promise<number> {
    const seed = this.options.perKind
      ? `${request.kind}-${hashString(request.seed) % this.options.perKind}`
      : request.seed;
    const key = `${request.kind}:${seed}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    // One at a time: on a fresh database ids follow the order of first use, run after run.
    const id = await storeGeneratedImage(this.ctx, { ...request, seed });
    this.ids.set(key, id);
    this.order.push(id);
    const sameKind = this.kinds.get(request.kind) ?? [];
    sameKind.push(id);
    this.kinds.set(request.kind, sameKind);
    return id;
  }

  /** Every id handed out so far, in order of first use. */
  all(): readonly number[] {
    return this.order;
  }

  /** Ids of one kind, in order of first use (the pool scale documents draw from). */
  ofKind(kind: ImageKind): readonly number[] {
    return this.kinds.get(kind) ?? [];
  }

  get size(): number {
    return this.order.length;
  }
}
