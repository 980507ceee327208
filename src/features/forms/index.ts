/** Browser-safe parts of the forms feature. */
export { type BlockFormId, blockFormIds } from './forms.ts';
