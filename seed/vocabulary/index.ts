import type { Lang } from '../../src/sites/types.ts';
import { en } from './en.ts';
import { fi } from './fi.ts';
import { sv } from './sv.ts';
import type { Vocabulary } from './types.ts';

export const vocabularies: Record<Lang, Vocabulary> = { fi, sv, en };
