import { useRef, useState } from 'react';
import {
  Button,
  Checkbox,
  CheckboxGroup,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
} from 'react-aria-components';
import type { Grant } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { useSites } from './home.tsx';
import { useRoles } from './roles.tsx';

const ALL = '*';

/**
 * A staff member's grants: for each a role, and the sites and languages it covers ("all" or a
 * choice). Checkbox groups, so it works by keyboard and reads out as groups.
 */
export function GrantsEditor({
  value,
  onChange,
}: {
  value: Grant[];
  onChange: (grants: Grant[]) => void;
}) {
  const { t, lang } = useT();
  const roles = useRoles(true);
  const sites = useSites();
  const set = (index: number, grant: Grant) =>
    onChange(value.map((g, i) => (i === index ? grant : g)));
  // Stable keys for the grants while they are added and removed (they have no ids of their own).
  const keys = useRef<number[]>([]);
  const nextKey = useRef(0);
  while (keys.current.length < value.length) keys.current.push(nextKey.current++);
  keys.current.length = value.length;
  const remove = (index: number) => {
    keys.current.splice(index, 1);
    onChange(value.filter((_, i) => i !== index));
  };
  return (
    <div className={styles.grantsEditor}>
      {value.map((grant, index) => (
        <fieldset key={keys.current[index]} className={styles.grant}>
          <legend>{t('admin.staff.grant', { number: index + 1 })}</legend>
          <Select
            selectedKey={grant.role}
            onSelectionChange={(key) => set(index, { ...grant, role: String(key) })}
            className={styles.field}
          >
            <Label className={styles.label}>{t('admin.staff.role')}</Label>
            <Button className={styles.select}>
              <SelectValue />
              <span aria-hidden="true">▾</span>
            </Button>
            <Popover className={styles.popover}>
              <ListBox className={styles.listBox} items={roles.data?.roles ?? []}>
                {(role) => (
                  <ListBoxItem id={role.key} className={styles.option}>
                    {role.name[lang]}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
          <CheckboxGroup
            className={styles.checkboxGroup}
            value={grant.sites === null ? [ALL] : grant.sites}
            onChange={(next) => {
              const all = next.includes(ALL) && grant.sites !== null;
              set(index, { ...grant, sites: all ? null : next.filter((s) => s !== ALL) });
            }}
          >
            <Label className={styles.label}>{t('admin.staff.sites')}</Label>
            <div className={styles.checkboxes}>
              <Checkbox value={ALL} className={styles.checkbox}>
                <span className={styles.box} aria-hidden="true" />
                {t('admin.staff.allSites')}
              </Checkbox>
              {(sites.data?.sites ?? []).map((site) => (
                <Checkbox key={site.id} value={site.id} className={styles.checkbox}>
                  <span className={styles.box} aria-hidden="true" />
                  {site.name}
                </Checkbox>
              ))}
            </div>
          </CheckboxGroup>
          <CheckboxGroup
            className={styles.checkboxGroup}
            value={grant.langs === null ? [ALL] : grant.langs}
            onChange={(next) => {
              const all = next.includes(ALL) && grant.langs !== null;
              set(index, {
                ...grant,
                langs: all ? null : (next.filter((l) => l !== ALL) as Grant['langs']),
              });
            }}
          >
            <Label className={styles.label}>{t('admin.staff.langs')}</Label>
            <div className={styles.checkboxes}>
              <Checkbox value={ALL} className={styles.checkbox}>
                <span className={styles.box} aria-hidden="true" />
                {t('admin.staff.allLangs')}
              </Checkbox>
              {(['fi', 'sv', 'en'] as const).map((l) => (
                <Checkbox key={l} value={l} className={styles.checkbox}>
                  <span className={styles.box} aria-hidden="true" />
                  {t(`admin.lang.${l}`)}
                </Checkbox>
              ))}
            </div>
          </CheckboxGroup>
          {value.length > 1 ? (
            <Button className={styles.link} onPress={() => remove(index)}>
              {t('admin.staff.removeGrant', { number: index + 1 })}
            </Button>
          ) : null}
        </fieldset>
      ))}
      <Button
        className={styles.secondary}
        onPress={() => onChange([...value, { role: 'editor', sites: null, langs: null }])}
      >
        {t('admin.staff.addGrant')}
      </Button>
    </div>
  );
}

export function useGrantsState(initial: Grant[]) {
  return useState<Grant[]>(initial);
}
