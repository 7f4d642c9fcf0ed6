import { useEffect, useRef } from 'react';

/**
 * A selection checkbox of the alert list: the browser's own, in the theme's colour. The list shows up to 100 of them
 * on the first load, where Mantine's Checkbox would add its code to the dashboard's budget (issue 14).
 */
export function SelectBox({ checked, indeterminate = false, onChange, label, testId }: { checked: boolean; indeterminate?: boolean; onChange: (checked: boolean) => void; label: string; testId?: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return <input ref={ref} type="checkbox" className="select-box" aria-label={label} checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} data-testid={testId} />;
}
