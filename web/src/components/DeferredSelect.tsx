import { forwardRef } from 'react';
import { ComboboxChevron, Input, InputBase, Select, type ElementProps, type InputBaseProps, type SelectProps } from '@mantine/core';
import { useAfterFirstRender } from '../lib/use-after-first-render.ts';

/** The Select's props about its list and value, which its input (and so the look-alike) does not take. */
const SELECT_ONLY = new Set([
  'onChange',
  'allowDeselect',
  'nothingFoundMessage',
  'comboboxProps',
  'dropdownOpened',
  'defaultDropdownOpened',
  'onDropdownOpen',
  'onDropdownClose',
  'selectFirstOptionOnChange',
  'selectFirstOptionOnDropdownOpen',
  'onOptionSubmit',
  'filter',
  'limit',
  'withScrollArea',
  'maxDropdownHeight',
  'floatingHeight',
  'checkIconPosition',
  'withCheckIcon',
  'withAlignedLabels',
  'searchValue',
  'defaultSearchValue',
  'onSearchChange',
  'clearButtonProps',
  'hiddenInputProps',
  'renderOption',
  'onClear',
  'scrollAreaProps',
  'autoSelectOnBlur',
  'openOnFocus',
  'autoComplete',
]);

type Option = string | { value: string; label?: string };

/** The label shown for `value` among a Select's data (plain strings, options, groups of either). */
function labelOf(data: ReadonlyArray<Option | { group: unknown; items: ReadonlyArray<Option> }> | undefined, value: string | null | undefined): string {
  if (value == null) return '';
  for (const item of data ?? []) {
    if (typeof item === 'string') {
      if (item === value) return item;
    } else if ('group' in item) {
      const found = labelOf(item.items, value);
      if (found) return found;
    } else if (item.value === value) return item.label ?? item.value;
  }
  return '';
}

/**
 * A closed Select as it looks, without what makes it a Select: the same input (classes, size, label, value's label,
 * chevron or clear button), no list, no floating position, no keyboard handling. It is inert (it takes no click and
 * no focus) and stands in for the Select during its first render only.
 */
export const SelectLookAlike = forwardRef<HTMLInputElement, SelectProps>(function SelectLookAlike(props, ref) {
  const { data, value, defaultValue, searchable, clearable, clearSectionMode, chevronColor, rightSectionPointerEvents, readOnly, ...rest } = props;
  // What remains are the input's own props (label, placeholder, size, width, test id…).
  const inputProps = Object.fromEntries(Object.entries(rest).filter(([key]) => !SELECT_ONLY.has(key))) as InputBaseProps & ElementProps<'input', 'size'>;
  const shown = value !== undefined ? value : defaultValue;
  const withClear = !!clearable && shown != null && !rest.disabled && !readOnly;
  return (
    <InputBase
      ref={ref}
      {...inputProps}
      __staticSelector="Select"
      __defaultRightSection={<ComboboxChevron size={rest.size} error={rest.error} unstyled={rest.unstyled} color={chevronColor} />}
      __clearSection={<Input.ClearButton tabIndex={-1} aria-hidden />}
      __clearable={withClear}
      __clearSectionMode={clearSectionMode}
      rightSectionPointerEvents={rightSectionPointerEvents ?? 'none'}
      pointer={!searchable}
      readOnly
      value={labelOf(data, shown)}
      autoComplete="off"
      inert
    />
  );
});

/**
 * A Select whose first render is its look-alike (above), the Select itself coming in the render right after. The
 * dashboard's first paint shows seven Selects (the tenant, six filters): rendered as Selects, they were a fifth of the
 * main thread's work before the first alert card (issue 33; measured in Chromium: 214 → 168 ms without them).
 */
export const DeferredSelect = forwardRef<HTMLInputElement, SelectProps>(function DeferredSelect(props, ref) {
  const ready = useAfterFirstRender();
  return ready ? <Select ref={ref} {...props} /> : <SelectLookAlike ref={ref} {...props} />;
});
