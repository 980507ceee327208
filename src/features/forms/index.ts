export { FormBlock } from './form-block.tsx';
export { type BlockFormId, blockFormIds } from './forms.ts';
