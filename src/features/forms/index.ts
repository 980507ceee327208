/** Browser-safe parts of the forms feature. */
export { type BlockFormId, blockFormIds, type FormId, formIds } from './forms.ts';
export { pushEvent } from './widgets/api.ts';
export {
  ErrorText,
  IdContext,
  Star,
  SummaryContext,
  type SummaryRegistry,
  useField,
} from './widgets/field-base.tsx';
export {
  Checkbox,
  ErrorSummary,
  FormFrame,
  type Status,
  SubmitRow,
  SuccessText,
  TextField,
  useSchemaForm,
} from './widgets/form-parts.tsx';
