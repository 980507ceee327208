import type { CardType } from '../blocks.ts';
import type { CardDto } from './schemas.ts';

/** The path of a dropdown choice's cards (spec §7). */
export function filteredCardsPath(dropdownItemId: number, cardType: CardType): string {
  return `/api/filtered-cards/${encodeURIComponent(dropdownItemId)}/${encodeURIComponent(cardType)}`;
}

/** The cards of a dropdown choice, from the browser. Throws on any answer but 200. */
export async function fetchFilteredCards(
  dropdownItemId: number,
  cardType: CardType,
  signal: AbortSignal,
): Promise<CardDto[]> {
  const response = await fetch(filteredCardsPath(dropdownItemId, cardType), {
    signal,
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`filtered cards answered ${response.status}`);
  const body: unknown = await response.json();
  if (!Array.isArray(body)) throw new Error('filtered cards answered no list');
  return body as CardDto[];
}
