import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  Button,
  Cell,
  Checkbox,
  Column,
  DialogTrigger,
  Heading,
  Row,
  type Selection,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import type { BulkRefused, BulkResult, ScheduleAction } from '../../features/content/admin.ts';
import styles from '../admin.module.css';
import { ApiError, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, DialogActions, ErrorSummary, type GridColumn, ModalDialog } from '../ui.tsx';

/** A row a bulk action can name: its id, the newest version shown, and a title for the dialog. */
export interface BulkItem {
  id: number;
  version: number;
  title: string;
}

function SelectBox({ label }: { label?: string }) {
  return (
    <Checkbox
      slot="selection"
      className={styles.checkbox}
      {...(label ? { 'aria-label': label } : {})}
    >
      <span className={styles.box} aria-hidden="true" />
    </Checkbox>
  );
}

/**
 * A list whose rows can be selected (decision 167) — by the checkbox, or with the arrow keys and
 * Space — and then published or taken off the site together: the confirmation names how many
 * and which, and the server gets exactly those ids with the versions shown. When the server
 * refuses (one is stale or outside the grants), nothing changed and the dialog says which.
 * `api` is the kind's address (`…/bulk` is posted to), `noun` the kind's texts
 * (`admin.bulk.<noun>.…`), `queryKey` the list to reload afterwards.
 */
export function BulkTable<Item extends BulkItem>({
  label,
  api,
  noun,
  columns,
  items,
  empty,
  queryKey,
  canPublish,
}: {
  label: string;
  api: string;
  noun: 'recipe';
  columns: GridColumn<Item>[];
  items: Item[];
  empty: string;
  queryKey: readonly unknown[];
  canPublish: boolean;
}) {
  const { t } = useT();
  const [selected, setSelected] = useState<Selection>(new Set());
  const [said, setSaid] = useState<string | null>(null);
  const chosen = selected === 'all' ? items : items.filter((i) => selected.has(i.id));
  const table = (
    <div className={styles.tableWrap}>
      <Table
        aria-label={label}
        className={styles.table}
        {...(canPublish
          ? {
              selectionMode: 'multiple' as const,
              selectedKeys: selected,
              onSelectionChange: setSelected,
            }
          : {})}
      >
        <TableHeader>
          {[
            ...(canPublish
              ? [
                  <Column key="select" width={44}>
                    <SelectBox label={t('admin.bulk.selectAll')} />
                  </Column>,
                ]
              : []),
            ...columns.map(([heading], index) => (
              <Column key={heading} isRowHeader={index === 0}>
                {heading}
              </Column>
            )),
          ]}
        </TableHeader>
        <TableBody items={items} renderEmptyState={() => empty}>
          {(item) => (
            <Row id={item.id}>
              {[
                ...(canPublish
                  ? [
                      <Cell key="select">
                        <SelectBox />
                      </Cell>,
                    ]
                  : []),
                ...columns.map(([heading, cell, className]) => (
                  <Cell key={heading} data-label={heading} className={className}>
                    {cell(item)}
                  </Cell>
                )),
              ]}
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
  if (!canPublish) return table;
  return (
    <>
      <div className={styles.actions}>
        <p role="status" className={styles.muted}>
          {t('admin.bulk.selected', { count: chosen.length })}
        </p>
        {(['publish', 'unpublish'] as const).map((action) => (
          <BulkDialog
            key={action}
            action={action}
            api={api}
            noun={noun}
            items={chosen}
            queryKey={queryKey}
            onDone={(text) => {
              setSaid(text);
              setSelected(new Set());
            }}
          />
        ))}
      </div>
      <p role="status">{said ?? ''}</p>
      {table}
    </>
  );
}

function BulkDialog({
  action,
  api,
  noun,
  items,
  queryKey,
  onDone,
}: {
  action: ScheduleAction;
  api: string;
  noun: 'recipe';
  items: BulkItem[];
  queryKey: readonly unknown[];
  onDone: (said: string) => void;
}) {
  const { t } = useT();
  const count = items.length;
  const many = count === 1 ? 'one' : 'many';
  return (
    <DialogTrigger>
      <Button
        className={action === 'publish' ? styles.primary : styles.secondary}
        isDisabled={count === 0}
      >
        {t(`admin.bulk.${action}`, { count })}
      </Button>
      <ModalDialog>
        {(close) => (
          <BulkConfirm
            heading={t(`admin.bulk.${noun}.${action}.${many}`, { count })}
            action={action}
            api={api}
            items={items}
            queryKey={queryKey}
            close={close}
            onDone={onDone}
          >
            {t(`admin.bulk.${noun}.${action}.confirm`, { count })}
          </BulkConfirm>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

function BulkConfirm({
  heading,
  action,
  api,
  items,
  queryKey,
  close,
  onDone,
  children,
}: {
  heading: string;
  action: ScheduleAction;
  api: string;
  items: BulkItem[];
  queryKey: readonly unknown[];
  close: () => void;
  onDone: (said: string) => void;
  children: ReactNode;
}) {
  const { t } = useT();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [refused, setRefused] = useState<BulkRefused['refused']>([]);
  const [pending, setPending] = useState(false);
  const titleOf = new Map(items.map((i) => [i.id, i.title]));
  return (
    <>
      <Heading slot="title">{heading}</Heading>
      <ul>
        {items.map((i) => (
          <li key={i.id}>{i.title || t('admin.recipe.unnamed')}</li>
        ))}
      </ul>
      {refused.length > 0 ? (
        <div role="alert" className={styles.errorSummary}>
          <p>{t('admin.bulk.refused')}</p>
          <ul>
            {refused.map((r) => (
              <li key={r.id}>
                {t(`admin.bulk.reason.${r.reason}`, { title: titleOf.get(r.id) ?? String(r.id) })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorSummary error={error} />
      <AdminForm
        errors={{}}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          setPending(true);
          setError(null);
          setRefused([]);
          try {
            const result = await post<BulkResult>(`${api}/bulk`, {
              action,
              items: items.map(({ id, version }) => ({ id, version })),
            });
            const changed = result.items.filter((i) => i.changed).length;
            close();
            onDone(t(`admin.bulk.done.${action}`, { count: changed }));
          } catch (e) {
            if (e instanceof ApiError && Array.isArray(e.problem.refused)) {
              setRefused(e.problem.refused as BulkRefused['refused']);
            } else setError(e);
          } finally {
            setPending(false);
            await client.invalidateQueries({ queryKey });
          }
        }}
      >
        <DialogActions
          confirm={children}
          cancel={t('admin.news.cancel')}
          danger={action === 'unpublish'}
          close={close}
        />
      </AdminForm>
    </>
  );
}
