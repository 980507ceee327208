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
