import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  Button,
  DialogTrigger,
  FileTrigger,
  Heading,
  Radio,
  RadioGroup,
} from 'react-aria-components';
import {
  CONTENT_IMAGES_API,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOAD_TYPES,
  type ImageChoice,
  thumbnailUrl,
} from '../../features/content/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { Field, ModalDialog, useFieldError } from '../ui.tsx';
import type { Scope } from './content-editor.tsx';

/**
 * A picture of a content item: its thumbnail, and a dialog to choose another from the library or
 * upload one. `label` names it (an item may have several).
 */
export function ImageField({
  scope,
  imageId,
  onChange,
  label,
  name,
}: {
  scope: Scope;
  imageId: number | null;
  onChange: (id: number | null) => void;
  label?: string;
  /** The field's name in the API's errors (`document.imageId`): its error is shown under it. */
  name?: string;
}) {
  const { t } = useT();
  const labelId = useId();
  const error = useFieldError(name ?? '');
  return (
    <div className={styles.field}>
      <span className={styles.label} id={labelId}>
        {label ?? t('admin.recipe.field.imageId')}
      </span>
      {imageId === null ? (
        <p>{t('admin.recipe.imageNone')}</p>
      ) : (
        <img
          src={thumbnailUrl(imageId)}
          alt={t('admin.recipe.imageChosen', { alt: String(imageId) })}
          width={160}
          height={160}
          className={styles.thumbnail}
        />
      )}
      <div className={styles.inlineActions}>
        <DialogTrigger>
          <Button className={styles.secondary}>
            {t(imageId === null ? 'admin.recipe.chooseImage' : 'admin.recipe.changeImage')}
          </Button>
          <ModalDialog>
            {(close) => (
              <ImagePicker
                scope={scope}
                current={imageId}
                onChoose={(id) => {
                  onChange(id);
                  close();
                }}
                close={close}
              />
            )}
          </ModalDialog>
        </DialogTrigger>
        {imageId === null ? null : (
          <Button className={styles.secondary} onPress={() => onChange(null)}>
            {t('admin.recipe.removeImage')}
          </Button>
        )}
      </div>
      {error ? <p className={styles.fieldError}>{error}</p> : null}
    </div>
  );
}

function ImagePicker({
  scope,
  current,
  onChoose,
  close,
}: {
  scope: Scope;
  current: number | null;
  onChoose: (id: number) => void;
  close: () => void;
}) {
  const { t } = useT();
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  // null, not '': a group with a value no radio has cannot be reached by Tab.
  const [chosen, setChosen] = useState<string | null>(current === null ? null : String(current));
  const images = useQuery({
    queryKey: ['content-images', scope.siteId, scope.lang, q],
    queryFn: () =>
      get<{ images: ImageChoice[]; total: number }>(
        `${CONTENT_IMAGES_API}?site=${scope.siteId}&lang=${scope.lang}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
      ),
  });
  return (
    <>
      <Heading slot="title" level={2}>
        {t('admin.recipe.chooseImage')}
      </Heading>
      {/* No forms in the dialog: it is a portal inside the editor's form, and React hands a
          portal's submit on to the forms around it in the component tree. */}
      <div className={styles.filters}>
        <Field
          name="q"
          type="search"
          label={t('admin.recipe.imagesSearch')}
          value={typed}
          onChange={setTyped}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setQ(typed.trim());
          }}
        />
        <Button className={styles.secondary} onPress={() => setQ(typed.trim())}>
          {t('admin.recipe.imagesApply')}
        </Button>
      </div>
      {images.data && images.data.images.length === 0 ? (
        <p>{t('admin.recipe.imagesNone')}</p>
      ) : null}
      <div>
        <RadioGroup
          value={chosen}
          onChange={setChosen}
          aria-label={t('admin.recipe.imagesList')}
          className={styles.imageGrid}
        >
          {(images.data?.images ?? []).map((image) => (
            <Radio key={image.id} value={String(image.id)} className={styles.imageOption}>
              <img src={image.thumbUrl} alt="" width={96} height={96} />
              <span>{image.alt || `#${image.id}`}</span>
            </Radio>
          ))}
        </RadioGroup>
        <div className={styles.actions}>
          <Button
            className={styles.primary}
            onPress={() => (chosen ? onChoose(Number(chosen)) : undefined)}
          >
            {t('admin.recipe.choose')}
          </Button>
          <Button className={styles.secondary} onPress={close}>
            {t('admin.recipe.cancel')}
          </Button>
        </div>
      </div>
      <ImageUpload scope={scope} onUploaded={onChoose} />
    </>
  );
}

/**
 * A new picture from the staff member's computer into the image library, with its alt text; the
 * uploaded picture is the chosen one. The server checks its real type and size again.
 */
function ImageUpload({ scope, onUploaded }: { scope: Scope; onUploaded: (id: number) => void }) {
  const { t, error: text } = useT();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const uploadId = useId();
  const send = async () => {
    if (sending) return;
    if (!file || file.size > IMAGE_UPLOAD_MAX_BYTES || !alt.trim()) {
      setProblem(
        !file
          ? t('admin.recipe.imageType')
          : !alt.trim()
            ? `${t('admin.recipe.uploadAlt')}: ${t('admin.error.required')}`
            : t('admin.recipe.imageTooLarge'),
      );
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      const data = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
      const made = await post<ImageChoice>(
        `${CONTENT_IMAGES_API}?site=${scope.siteId}&lang=${scope.lang}`,
        { data, alt: alt.trim() },
      );
      onUploaded(made.id);
    } catch (e) {
      const key = e instanceof ApiError ? Object.values(e.errors)[0] : undefined;
      setProblem(key ? (text(key) ?? key) : t('admin.error.server'));
    } finally {
      setSending(false);
    }
  };
  return (
    <section aria-labelledby={uploadId} className={styles.grant}>
      <Heading level={3} id={uploadId}>
        {t('admin.recipe.upload')}
      </Heading>
      <FileTrigger
        acceptedFileTypes={[...IMAGE_UPLOAD_TYPES]}
        onSelect={(files) => {
          setFile(files?.[0] ?? null);
          setProblem(null);
        }}
      >
        <Button className={styles.secondary}>{t('admin.recipe.uploadFile')}</Button>
      </FileTrigger>
      <p role="status">{file ? t('admin.recipe.uploadChosen', { name: file.name }) : ''}</p>
      <Field name="alt" label={t('admin.recipe.uploadAlt')} value={alt} onChange={setAlt} />
      {problem ? (
        <p role="alert" className={styles.errorSummary}>
          {problem}
        </p>
      ) : null}
      <Button className={styles.primary} onPress={() => void send()}>
        {t('admin.recipe.uploadSend')}
      </Button>
    </section>
  );
}
