import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, DialogTrigger, Heading, ToggleButton, Toolbar } from 'react-aria-components';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { allowedHref, normaliseRichText, richTextExtensions } from '../rich-text.ts';
import { Field, ModalDialog, useFieldError } from '../ui.tsx';

/**
 * A rich-text field (decision 166): TipTap with the schema of `rich-text.ts`, which writes only
 * what the public pages' sanitiser keeps. A toolbar (arrow keys move in it) for bold, italic,
 * headings, lists, quote and links; the usual keys work too (Ctrl+B, Ctrl+I, Shift+Enter). The
 * editable area is a labelled multi-line text box; its error is the server's for `name`.
 */
export function RichTextField({
  label,
  name,
  value,
  onChange,
  id,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (html: string) => void;
  /** The editable area's id (where focus goes when the field is added). */
  id?: string;
}) {
  const { t } = useT();
  const labelId = useId();
  const errorId = useId();
  const error = useFieldError(name);
  const changed = useRef(onChange);
  changed.current = onChange;
  // The editable area: a labelled multi-line text box, with its error when it has one.
  const attributes: Record<string, string> = {
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    ...(error ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}),
    ...(id ? { id } : {}),
    class: styles.richTextArea ?? '',
  };
  const editor = useEditor({
    extensions: richTextExtensions(),
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes },
    onUpdate: ({ editor: typed }) => changed.current(normaliseRichText(typed.getHTML())),
  });
  // A new value from outside (a loaded version, changes made again on the newest) replaces the
  // text; the editor's own changes come back equal and leave it be.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (normaliseRichText(editor.getHTML()) !== value) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the attributes follow these values.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({ editorProps: { attributes } });
  }, [editor, error, errorId, id, labelId]);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      quote: e?.isActive('blockquote') ?? false,
      link: e?.isActive('link') ?? false,
    }),
  });
  const chain = () => editor?.chain().focus();
  const toggles = [
    ['bold', 'admin.richText.bold', () => chain()?.toggleBold().run()],
    ['italic', 'admin.richText.italic', () => chain()?.toggleItalic().run()],
    ['h2', 'admin.richText.h2', () => chain()?.toggleHeading({ level: 2 }).run()],
    ['h3', 'admin.richText.h3', () => chain()?.toggleHeading({ level: 3 }).run()],
    ['bullet', 'admin.richText.bulletList', () => chain()?.toggleBulletList().run()],
    ['ordered', 'admin.richText.orderedList', () => chain()?.toggleOrderedList().run()],
    ['quote', 'admin.richText.quote', () => chain()?.toggleBlockquote().run()],
  ] as const;
  return (
    <div className={styles.field}>
      <span className={styles.label} id={labelId}>
        {label}
      </span>
      <Toolbar aria-label={t('admin.richText.toolbar', { label })} className={styles.toolbar}>
        {toggles.map(([key, text, run]) => (
          <ToggleButton
            key={key}
            className={styles.toolButton}
            isSelected={state?.[key] ?? false}
            onChange={() => run()}
          >
            {t(text)}
          </ToggleButton>
        ))}
        <LinkButton
          active={state?.link ?? false}
          selected={() => {
            if (!editor) return '';
            const { from, to } = editor.state.selection;
            return editor.state.doc.textBetween(from, to, ' ');
          }}
          currentHref={() => String(editor?.getAttributes('link').href ?? '')}
          onLink={(href, text) => {
            if (editor) setLink(editor, href, text);
          }}
          onUnlink={() => chain()?.extendMarkRange('link').unsetLink().run()}
        />
      </Toolbar>
      <EditorContent editor={editor} className={styles.richText} />
      {error ? (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The link button: a dialog for the address (and the text, when nothing is selected). */
function LinkButton({
  active,
  selected,
  currentHref,
  onLink,
  onUnlink,
}: {
  active: boolean;
  selected: () => string;
  currentHref: () => string;
  onLink: (href: string, text: string) => void;
  onUnlink: () => void;
}) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <ToggleButton className={styles.toolButton} isSelected={active}>
        {t('admin.richText.link')}
      </ToggleButton>
      <ModalDialog>
        {(close) => (
          <LinkDialog
            initialHref={active ? currentHref() : ''}
            initialText={active ? '' : selected()}
            canUnlink={active}
            onLink={(href, text) => {
              close();
              onLink(href, text);
            }}
            onUnlink={() => {
              close();
              onUnlink();
            }}
            close={close}
          />
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

function LinkDialog({
  initialHref,
  initialText,
  canUnlink,
  onLink,
  onUnlink,
  close,
}: {
  initialHref: string;
  initialText: string;
  canUnlink: boolean;
  onLink: (href: string, text: string) => void;
  onUnlink: () => void;
  close: () => void;
}) {
  const { t } = useT();
  const [href, setHref] = useState(initialHref);
  const [text, setText] = useState(initialText);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = () => {
    const address = href.trim();
    if (!allowedHref(address)) {
      setProblem(t('admin.richText.linkInvalid'));
      return;
    }
    onLink(address, text.trim());
  };
  return (
    <>
      <Heading slot="title" level={2}>
        {t('admin.richText.linkTitle')}
      </Heading>
      {/* No form: the dialog is a portal inside the editor's form (see the image picker). */}
      <Field
        name="richTextLinkText"
        label={t('admin.richText.linkText')}
        value={text}
        onChange={setText}
      />
      <Field
        name="richTextLinkHref"
        label={t('admin.richText.linkHref')}
        description={t('admin.richText.linkHint')}
        value={href}
        onChange={(next) => {
          setHref(next);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
      />
      {problem ? (
        <p role="alert" className={styles.errorSummary}>
          {problem}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button className={styles.primary} onPress={apply}>
          {t('admin.richText.linkApply')}
        </Button>
        {canUnlink ? (
          <Button className={styles.secondary} onPress={onUnlink}>
            {t('admin.richText.unlink')}
          </Button>
        ) : null}
        <Button className={styles.secondary} onPress={close}>
          {t('admin.recipe.cancel')}
        </Button>
      </div>
    </>
  );
}

/**
 * A link to `href`: on the link the cursor is in, else on the selection, else (nothing selected,
 * or a text typed in the dialog) a new linked text.
 */
function setLink(editor: Editor, href: string, text: string) {
  const chain = () => editor.chain().focus();
  const { empty } = editor.state.selection;
  if (editor.isActive('link') && empty) {
    chain().extendMarkRange('link').setLink({ href }).run();
  } else if (empty || text) {
    chain()
      .insertContent({
        type: 'text',
        text: text || href,
        marks: [{ type: 'link', attrs: { href } }],
      })
      .run();
  } else {
    chain().setLink({ href }).run();
  }
}
