import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, type MouseEvent, useState } from 'react';
import { Button, DialogTrigger, FileTrigger, Heading } from 'react-aria-components';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import {
  editPathOf,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOAD_TYPES,
  type ImageUse,
  MEDIA_LANGS,
  type MEDIA_ADMIN_API as MediaApi,
  type MediaImage,
  type MediaLang,
  type MediaList,
} from '../../features/content/admin.ts';
import type { AccessGrant } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { ApiError, del, get, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useMe } from '../session.tsx';
import {
  AdminForm,
  ChoiceSelect,
  ErrorSummary,
  Field,
  LiveStatus,
  ModalDialog,
  Section,
} from '../ui.tsx';
import { UploadFields, useImageUpload } from './image-field.tsx';
import { type Column, ListPages, RowsTable, TextSearch, useSearchedList } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const MEDIA_ADMIN_API: typeof MediaApi = '/api/admin/content/media';

/**
 * The image library (decision 168): every image the sites share, newest first, searched by its
 * alt text in any language, 50 at a time; each opens on its own screen.
 */
export function MediaScreen() {
  const { t } = useT();
  const location = useLocation();
  const { q, offset, params, list, search } = useSearchedList<MediaList>('media', MEDIA_ADMIN_API);
  const total = list.data?.total;
  const deleted = (location.state as { deleted?: number } | null)?.deleted;
  return (
    <>
      <Heading level={1}>{t('admin.media.heading')}</Heading>
      <p>{t('admin.media.lead')}</p>
      <LiveStatus text={deleted ? t('admin.media.deleted', { id: deleted }) : null} />
      <TextSearch
        q={q}
        text={(name) => t(`admin.media.${name}`)}
        clearTo="/content/media"
        onSearch={search}
      />
      {list.data && list.data.scopes.length > 0 ? <Upload scopes={list.data.scopes} /> : null}
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{total === undefined ? '' : t('admin.media.count', { count: total })}</p>
      {list.data && list.data.images.length === 0 ? <p>{t('admin.media.empty')}</p> : null}
      {list.data && list.data.images.length > 0 ? (
        <ul aria-label={t('admin.media.heading')} className={styles.mediaGrid}>
          {list.data.images.map((image) => (
            <li key={image.id} className={styles.mediaCard}>
              <Link to={`/content/media/${image.id}`}>
                <img src={image.thumbUrl} alt="" width={160} height={160} />
                <span>{altLine(image.alt) || t('admin.media.noAlt', { id: image.id })}</span>
              </Link>
              <span className={styles.muted}>
                {t('admin.media.size', { width: image.width, height: image.height })}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

/**
 * A new picture into the library, with its alt text in the language of a site the staff member
 * may edit (the upload is checked and audited for that site and language); it opens at once.
 */
function Upload({ scopes }: { scopes: MediaList['scopes'] }) {
  const { t } = useT();
  const navigate = useNavigate();
  const client = useQueryClient();
  const options = scopes.map((s) => [`${s.siteId}/${s.lang}`, `${s.siteId}, ${s.lang}`] as const);
  const [scope, setScope] = useState(options[0]?.[0] ?? '');
  const upload = useImageUpload(t('admin.media.replaceNoFile'));
  const send = async () => {
    const [siteId = '', lang = ''] = scope.split('/');
    const made = await upload.send({ siteId, lang });
    if (!made) return;
    void client.invalidateQueries({ queryKey: ['media'] });
    navigate(`/content/media/${made.id}`);
  };
  return (
    <Section id="media-upload" title={t('admin.media.upload')}>
      <p>{t('admin.media.uploadLead')}</p>
      {options.length > 1 ? (
        <ChoiceSelect
          name="scope"
          label={t('admin.media.uploadScope')}
          options={options}
          value={scope}
          onChange={setScope}
        />
      ) : (
        <p>
          {t('admin.media.uploadScope')}: {options[0]?.[1]}
        </p>
      )}
      <UploadFields
        upload={upload}
        sendLabel={t('admin.media.uploadSend')}
        onSend={() => void send()}
      />
    </Section>
  );
}

/** An image's alt texts in one line: each language's, as the list shows them. */
function altLine(alt: Partial<Record<MediaLang, string>>): string {
  return MEDIA_LANGS.map((lang) => alt[lang])
    .filter(Boolean)
    .join(' · ');
}

/** Whether some grant gives `content.edit` for the language, on any site (as the server checks). */
const mayEditLanguage = (grants: readonly AccessGrant[], lang: MediaLang) =>
  grants.some(
    (g) => g.permissions.includes('content.edit') && (g.langs === null || g.langs.includes(lang)),
  );

/** One image: its alt texts and focus point, where it is used, a new file, deleting it. */
export function MediaImageScreen() {
  const { t } = useT();
  const id = Number(useParams().id);
  const image = useQuery({
    queryKey: ['media-image', id],
    queryFn: () => get<MediaImage>(`${MEDIA_ADMIN_API}/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (image.isError) {
    const missing = image.error instanceof ApiError && image.error.status === 404;
    return <p role="alert">{t(missing ? 'admin.notFound' : 'admin.error.load')}</p>;
  }
  if (!image.data) return <p>{t('admin.loading')}</p>;
  return <ImageEditor key={id} image={image.data} />;
}

/** An image's edits, replacing and deleting, each on the version shown (409: the newest shows). */
function useImageEditing(image: MediaImage) {
  const { t } = useT();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [alt, setAlt] = useState<Record<MediaLang, string>>(() => altFields(image));
  const [focus, setFocus] = useState(image.focus);
  /** The version the edits are made on. */
  const [base, setBase] = useState(image.version);
  const [said, setSaid] = useState<string | null>(null);
  const [stale, setStale] = useState<MediaImage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deleteRefused, setDeleteRefused] = useState<number | null>(null);
  const shown = (next: MediaImage) => {
    client.setQueryData(['media-image', next.id], next);
    void client.invalidateQueries({ queryKey: ['media'] });
    setBase(next.version);
  };
  /** A 409 of a stale version: the newest is shown, the staff member's edits stay in the fields. */
  const conflict = (e: unknown) => {
    if (e instanceof ApiError && e.status === 409 && e.type === '/problems/stale-version') {
      const current = e.problem.current as MediaImage;
      client.setQueryData(['media-image', current.id], current);
      setBase(current.version);
      setStale(current);
      return true;
    }
    return false;
  };

  /** One change: what was said before is cleared; a refusal it knows is its own, a 409 shows the newest. */
  const attempt = async (work: () => Promise<void>, refused?: (e: unknown) => boolean) => {
    setSaid(null);
    setError(null);
    setStale(null);
    setDeleteRefused(null);
    try {
      await work();
    } catch (e) {
      if (!refused?.(e) && !conflict(e)) setError(e);
    }
  };

  const save = async () => {
    const changedAlt: Partial<Record<MediaLang, string>> = {};
    for (const lang of MEDIA_LANGS) {
      if (alt[lang].trim() !== (image.alt[lang] ?? '')) changedAlt[lang] = alt[lang].trim();
    }
    const moved = focus.x !== image.focus.x || focus.y !== image.focus.y;
    await attempt(async () => {
      if (Object.keys(changedAlt).length === 0 && !moved) {
        setSaid(t('admin.media.nothing'));
        return;
      }
      const next = await put<MediaImage>(`${MEDIA_ADMIN_API}/${image.id}`, {
        version: base,
        ...(Object.keys(changedAlt).length > 0 ? { alt: changedAlt } : {}),
        ...(moved ? { focus } : {}),
      });
      shown(next);
      setAlt(altFields(next));
      setFocus(next.focus);
      setSaid(t('admin.media.saved'));
    });
  };

  const replace = (file: File) =>
    attempt(async () => {
      const data = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
      shown(await put<MediaImage>(`${MEDIA_ADMIN_API}/${image.id}/file`, { version: base, data }));
      setSaid(t('admin.media.replaced'));
    });

  const remove = () =>
    attempt(
      async () => {
        await del(`${MEDIA_ADMIN_API}/${image.id}?version=${base}`);
        void client.invalidateQueries({ queryKey: ['media'] });
        client.removeQueries({ queryKey: ['media-image', image.id] });
        navigate('/content/media', { state: { deleted: image.id } });
      },
      (e) => {
        if (!(e instanceof ApiError && e.status === 409 && e.type === '/problems/image-in-use')) {
          return false;
        }
        const uses = e.problem.uses as ImageUse[];
        const elsewhere = Number(e.problem.elsewhere ?? 0);
        client.setQueryData(['media-image', image.id], { ...image, uses, elsewhere });
        setDeleteRefused(uses.length + elsewhere);
        return true;
      },
    );
  return { alt, setAlt, focus, setFocus, said, stale, error, deleteRefused, save, replace, remove };
}

function ImageEditor({ image }: { image: MediaImage }) {
  const { t } = useT();
  const edit = useImageEditing(image);
  const { alt, focus, said, stale, error, deleteRefused } = edit;
  /** Only someone who may edit every place that shows the image may change it (decision 168). */
  const mayChange = image.elsewhere === 0;
  const title = altLine(image.alt) || t('admin.media.noAlt', { id: image.id });
  return (
    <>
      <p>
        <Link to="/content/media">{t('admin.media.back')}</Link>
      </p>
      <Heading level={1}>{t('admin.media.imageHeading', { id: image.id })}</Heading>
      <p className={styles.muted}>
        {title} · {t('admin.media.size', { width: image.width, height: image.height })}
      </p>
      <LiveStatus text={said} />
      {stale ? (
        <p role="alert" className={styles.errorSummary}>
          {t('admin.media.stale', { alt: altLine(stale.alt) || '–' })}
        </p>
      ) : null}
      <ErrorSummary error={error} />

      <Section id="media-details" title={t('admin.media.details')}>
        <DetailsForm
          image={image}
          alt={alt}
          onAlt={(lang, value) => edit.setAlt((now) => ({ ...now, [lang]: value }))}
          focus={focus}
          onFocus={edit.setFocus}
          mayChange={mayChange}
          onSave={() => void edit.save()}
        />
        <figure className={styles.mediaCrop}>
          <img src={image.cropUrl} alt="" width={400} height={225} />
          <figcaption className={styles.muted}>{t('admin.media.cropPreview')}</figcaption>
        </figure>
      </Section>

      <Uses uses={image.uses} elsewhere={image.elsewhere} />

      <Section id="media-replace" title={t('admin.media.replace')}>
        {mayChange ? (
          <Replace count={image.uses.length} onReplace={edit.replace} />
        ) : (
          <p>{t('admin.media.locked')}</p>
        )}
      </Section>

      <Section id="media-delete" title={t('admin.media.delete')}>
        <p>{t(mayChange ? 'admin.media.deleteLead' : 'admin.media.locked')}</p>
        {mayChange ? <DeleteButton id={image.id} onDelete={edit.remove} /> : null}
        {/* Beside the button that was pressed, where the eye is. */}
        {deleteRefused !== null ? (
          <p role="alert" className={styles.errorSummary}>
            {t('admin.media.deleteInUse', { count: deleteRefused })}
          </p>
        ) : null}
      </Section>
    </>
  );
}

/** The alt text of each language (editable where the grants reach) and the focus point. */
function DetailsForm(props: {
  image: MediaImage;
  alt: Record<MediaLang, string>;
  onAlt: (lang: MediaLang, value: string) => void;
  focus: MediaImage['focus'];
  onFocus: (focus: MediaImage['focus']) => void;
  mayChange: boolean;
  onSave: () => void;
}) {
  const { t } = useT();
  const grants = useMe().data?.grants ?? [];
  const { image, alt, onAlt, focus, onFocus, mayChange, onSave } = props;
  return (
    <AdminForm
      errors={{}}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {MEDIA_LANGS.map((lang) => {
        const allowed = mayChange && mayEditLanguage(grants, lang);
        return (
          <Field
            key={lang}
            name={`alt.${lang}`}
            label={t('admin.media.alt', { lang: t(`admin.media.lang.${lang}`) })}
            description={t(
              allowed
                ? 'admin.media.altHint'
                : mayChange
                  ? 'admin.media.altLocked'
                  : 'admin.media.locked',
            )}
            value={alt[lang]}
            isReadOnly={!allowed}
            onChange={(value) => onAlt(lang, value)}
          />
        );
      })}
      <FocusPicker
        src={image.previewUrl}
        width={image.width}
        height={image.height}
        value={focus}
        onChange={onFocus}
        disabled={!mayChange}
      />
      {mayChange ? (
        <div className={styles.actions}>
          <Button type="submit" className={styles.primary}>
            {t('admin.media.save')}
          </Button>
        </div>
      ) : null}
    </AdminForm>
  );
}

/** Delete, confirmed in a dialog. */
function DeleteButton({ id, onDelete }: { id: number; onDelete: () => Promise<void> }) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <Button className={styles.danger}>{t('admin.media.delete')}</Button>
      <ModalDialog>
        {(close) => (
          <>
            <Heading slot="title" level={2}>
              {t('admin.media.deleteConfirm', { id })}
            </Heading>
            <div className={styles.actions}>
              <Button
                className={styles.danger}
                onPress={() => {
                  close();
                  void onDelete();
                }}
              >
                {t('admin.media.delete')}
              </Button>
              <Button className={styles.secondary} onPress={close}>
                {t('admin.media.cancel')}
              </Button>
            </div>
          </>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

const altFields = (image: MediaImage): Record<MediaLang, string> => ({
  fi: image.alt.fi ?? '',
  sv: image.alt.sv ?? '',
  en: image.alt.en ?? '',
});

/** Hundredths: the focus point is kept to a percent. */
const percent = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;

/**
 * The focus point on the picture: a press on the picture puts it there; as a slider (focus it with
 * Tab) the arrow keys move it a percent, with Shift ten, Home and End to the edges of its row.
 */
function FocusPicker({
  src,
  width,
  height,
  value,
  onChange,
  disabled,
}: {
  src: string;
  width: number;
  height: number;
  value: { x: number; y: number };
  onChange: (value: { x: number; y: number }) => void;
  disabled: boolean;
}) {
  const { t } = useT();
  const x = Math.round(value.x * 100);
  const y = Math.round(value.y * 100);
  const text = t('admin.media.focusValue', { x, y });
  const press = (event: MouseEvent<HTMLDivElement>) => {
    if (disabled) return;
    const box = event.currentTarget.getBoundingClientRect();
    onChange({
      x: percent((event.clientX - box.left) / box.width),
      y: percent((event.clientY - box.top) / box.height),
    });
  };
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const step = event.shiftKey ? 0.1 : 0.01;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [value.x - step, value.y],
      ArrowRight: [value.x + step, value.y],
      ArrowUp: [value.x, value.y - step],
      ArrowDown: [value.x, value.y + step],
      Home: [0, value.y],
      End: [1, value.y],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: percent(move[0]), y: percent(move[1]) });
  };
  const shown = Math.min(1, 640 / width);
  return (
    <div className={styles.field}>
      <span className={styles.label} id="media-focus-label">
        {t('admin.media.focus')}
      </span>
      <span className={styles.description} id="media-focus-hint">
        {t(disabled ? 'admin.media.locked' : 'admin.media.focusHint')}
      </span>
      <div
        role="slider"
        tabIndex={0}
        aria-labelledby="media-focus-label"
        aria-describedby="media-focus-hint"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={x}
        aria-valuetext={text}
        aria-disabled={disabled || undefined}
        className={styles.focusPicker}
        onClick={press}
        onKeyDown={key}
      >
        <img
          src={src}
          alt=""
          width={Math.round(width * shown)}
          height={Math.round(height * shown)}
          draggable={false}
        />
        <span
          aria-hidden="true"
          className={styles.focusMarker}
          style={{ left: `${value.x * 100}%`, top: `${value.y * 100}%` }}
        />
      </div>
      <span aria-hidden="true">{text}</span>
    </div>
  );
}

/** The places shown before "show all": an image of every recipe is used in hundreds. */
const USES_SHOWN = 25;

/** Every place the image is used, each linked to its editor where there is one and it may be. */
function Uses({ uses, elsewhere }: { uses: ImageUse[]; elsewhere: number }) {
  const { t } = useT();
  const [all, setAll] = useState(false);
  const columns: Column<ImageUse>[] = [
    [t('admin.media.use.kind'), (u) => t(`admin.media.kind.${u.kind}`)],
    [
      t('admin.media.use.title'),
      (u) => {
        const to = editPathOf(u);
        return to ? <Link to={to}>{u.title || `#${u.id}`}</Link> : u.title || `#${u.id}`;
      },
    ],
    [t('admin.media.use.where'), (u) => `${u.siteId}, ${u.lang}`],
    [t('admin.media.use.path'), (u) => u.path ?? '–'],
    [t('admin.media.use.state'), (u) => t(`admin.media.state.${u.state}`)],
  ];
  return (
    <Section id="media-uses" title={t('admin.media.uses')}>
      <p>
        {uses.length + elsewhere === 0
          ? t('admin.media.usesNone')
          : t('admin.media.usesCount', { count: uses.length + elsewhere })}
        {elsewhere > 0 ? ` ${t('admin.media.usesElsewhere', { count: elsewhere })}` : null}
      </p>
      {uses.length > 0 ? (
        <RowsTable
          caption={t('admin.media.uses')}
          hiddenCaption
          columns={columns}
          rows={all ? uses : uses.slice(0, USES_SHOWN)}
          rowKey={(u) => `${u.kind}-${u.id}-${u.state}`}
        />
      ) : null}
      {uses.length > USES_SHOWN && !all ? (
        <Button className={styles.secondary} onPress={() => setAll(true)}>
          {t('admin.media.usesAll', { count: uses.length })}
        </Button>
      ) : null}
    </Section>
  );
}

/** A new file for the image, confirmed with the number of places it changes. */
function Replace({
  count,
  onReplace,
}: {
  count: number;
  onReplace: (file: File) => Promise<void>;
}) {
  const { t } = useT();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <p>{t('admin.media.replaceLead')}</p>
      <FileTrigger
        acceptedFileTypes={[...IMAGE_UPLOAD_TYPES]}
        onSelect={(files) => {
          const chosen = files?.[0] ?? null;
          setProblem(
            chosen && chosen.size > IMAGE_UPLOAD_MAX_BYTES ? t('admin.recipe.imageTooLarge') : null,
          );
          setFile(chosen && chosen.size <= IMAGE_UPLOAD_MAX_BYTES ? chosen : null);
        }}
      >
        <Button className={styles.secondary}>{t('admin.media.replaceFile')}</Button>
      </FileTrigger>
      <p role="status">{file ? t('admin.media.replaceChosen', { name: file.name }) : ''}</p>
      {problem ? (
        <p role="alert" className={styles.errorSummary}>
          {problem}
        </p>
      ) : null}
      <DialogTrigger>
        <Button className={styles.primary}>{t('admin.media.replaceSend')}</Button>
        <ModalDialog>
          {(close) => (
            <>
              <Heading slot="title" level={2}>
                {file ? t('admin.media.replaceConfirm', { count }) : t('admin.media.replaceNoFile')}
              </Heading>
              <div className={styles.actions}>
                {file ? (
                  <Button
                    className={styles.primary}
                    onPress={() => {
                      close();
                      void onReplace(file).then(() => setFile(null));
                    }}
                  >
                    {t('admin.media.replaceSend')}
                  </Button>
                ) : null}
                <Button className={styles.secondary} onPress={close}>
                  {t('admin.media.cancel')}
                </Button>
              </div>
            </>
          )}
        </ModalDialog>
      </DialogTrigger>
    </>
  );
}
