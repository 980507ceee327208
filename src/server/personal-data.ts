/**
 * What a feature answers about one person for a personal-data request (decision 159): each of
 * its rows that names them, as one record. The personal-data feature asks every store, shows the
 * records, packs them into the archive and erases the ones the staff member's grants reach.
 */

/** Whom a request is about: the normalised address and its keyed hash. */
export interface PersonSubject {
  /** `normaliseEmail` of the address asked for. */
  address: string;
  /** `emailHash` of it: what encrypted rows keep beside their sealed data. */
  hash: string;
}

export interface PersonRecord {
  /** The row's id in its store (unique within the store). */
  id: string;
  /** The site and language the row belongs to; null for rows about no one site. */
  siteId: string | null;
  lang: string | null;
  /** When it was written (ISO 8601). */
  at: string;
  /** A few words naming the row (an order's number, a form, a list): data, not a translated text. */
  summary: string;
  /** Everything the row holds about the person, opened where it is sealed, for the archive. */
  data: Record<string, unknown>;
}
