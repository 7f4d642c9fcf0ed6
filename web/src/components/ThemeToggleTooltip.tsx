import { useState, type RefObject } from 'react';
import { Tooltip } from '@mantine/core';

/**
 * The theme toggle's tooltip, attached to its button. Loaded after the page (ThemeToggle.tsx): a pointer already
 * resting on the button by then gets it at once, as it would have on arriving.
 */
export function ThemeToggleTooltip({ label, target }: { label: string; target: RefObject<HTMLButtonElement | null> }) {
  const [hovered] = useState(() => target.current?.matches(':hover') ?? false);
  return <Tooltip label={label} target={target} defaultOpened={hovered} />;
}
