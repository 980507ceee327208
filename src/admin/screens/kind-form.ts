/** The document a form stands for, or the errors (message keys by the API's field names). */
export type Made<Doc> = { document: Doc } | { errors: Record<string, string> };

/** A schema's issues as a form's errors, by the API's field names (`document.nutrition.fat`). */
export function formIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  errors: Record<string, string> = {},
): Record<string, string> {
  for (const issue of issues) {
    errors[['document', ...issue.path.map(String)].join('.')] ??= issue.message;
  }
  return errors;
}

/** A schema's answer for a candidate document as the form's result. */
export function madeOf<Doc>(
  parsed:
    | { success: true; data: Doc }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      },
): Made<Doc> {
  return parsed.success ? { document: parsed.data } : { errors: formIssues(parsed.error.issues) };
}
