/** The school vote's endpoint and answer, shared by the island and the server (no zod here). */
export const SCHOOL_VOTE_PATH = '/api/school/vote';

export interface SchoolVoteAnswer {
  /** The option this visitor's vote counts for (their earlier one when they had voted). */
  option: number;
  /** Whether this request counted the vote (false: the visitor had voted already). */
  counted: boolean;
  /** Votes per option, in the block's order. */
  totals: number[];
}

/**
 * The vote as a plain form, for visitors without script (or before it runs): posted here, it
 * answers 303 back to the page with the counted choice (or the failure) in the query.
 */
export const SCHOOL_VOTE_FORM_PATH = '/school-vote';

/** The query the form's answer goes back to the page with. */
export const VOTE_QUERY = { vote: 'aanestys', option: 'valinta', failed: 'aanestysvirhe' } as const;

/** The vote block's anchor: the form's answer comes back to it. */
export const voteAnchor = (voteId: string) => `aanestys-${voteId}`;

/** The page's address for the answer to a plain-form vote (`return` is a same-site path). */
export function voteReturnPath(
  returnPath: string,
  voteId: string,
  outcome: { option: number } | 'failed',
): string {
  const [pathAndQuery = '/'] = returnPath.split('#');
  const [path = '/', query = ''] = pathAndQuery.split('?');
  const params = new URLSearchParams(query);
  for (const name of Object.values(VOTE_QUERY)) params.delete(name);
  params.set(VOTE_QUERY.vote, voteId);
  if (outcome === 'failed') params.set(VOTE_QUERY.failed, '1');
  else params.set(VOTE_QUERY.option, String(outcome.option));
  return `${path}?${params.toString()}#${voteAnchor(voteId)}`;
}
