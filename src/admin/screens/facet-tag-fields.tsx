import { CheckboxGroup, Label } from 'react-aria-components';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { CheckField, ChoiceSelect } from '../ui.tsx';

type Category = { id: number; name: string; tags: { id: number; name: string }[] };
type Tags = { facetTagIds: number[]; categoryIds: number[] };

/**
 * An item's facet tags, a group of checkboxes per facet category of its site, and the one of them
 * its cards show as its category (`document.categoryIds`). Unticking a tag also drops it as the
 * category. Shared by the content editors whose items are tagged (products; recipes may use it).
 */
export function FacetTagFields({
  categories,
  value,
  onChange,
  tagsById,
  categoryLabel,
}: {
  categories: readonly Category[];
  value: Tags;
  onChange: (next: Tags) => void;
  tagsById: ReadonlyMap<number, string>;
  /** The label of the card's category. */
  categoryLabel: string;
}) {
  const { t } = useT();
  const { facetTagIds, categoryIds } = value;
  return (
    <>
      {categories.map((category) => {
        const inCategory = (id: number) => category.tags.some((tag) => tag.id === id);
        return (
          <CheckboxGroup
            key={category.id}
            className={styles.checkboxGroup}
            value={facetTagIds.filter(inCategory).map(String)}
            onChange={(chosen) => {
              const tags = [...facetTagIds.filter((id) => !inCategory(id)), ...chosen.map(Number)];
              onChange({
                facetTagIds: tags,
                categoryIds: categoryIds.filter((id) => tags.includes(id)),
              });
            }}
          >
            <Label className={styles.label}>{category.name}</Label>
            <div className={styles.checkboxes}>
              {category.tags.map((tag) => (
                <CheckField key={tag.id} value={String(tag.id)}>
                  {tag.name}
                </CheckField>
              ))}
            </div>
          </CheckboxGroup>
        );
      })}
      <ChoiceSelect
        key={facetTagIds.join(',')}
        name="document.categoryIds"
        label={categoryLabel}
        options={[
          ['none', t('admin.recipe.cardCategoryNone')],
          ...facetTagIds.map((id) => [String(id), tagsById.get(id) ?? String(id)] as const),
        ]}
        value={categoryIds[0] === undefined ? 'none' : String(categoryIds[0])}
        onChange={(chosen) =>
          onChange({ facetTagIds, categoryIds: chosen === 'none' ? [] : [Number(chosen)] })
        }
      />
    </>
  );
}
