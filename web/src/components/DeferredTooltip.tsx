import { Tooltip, type TooltipProps } from '@mantine/core';
import { useAfterFirstRender } from '../lib/use-after-first-render.ts';

/**
 * A Tooltip that wraps its element from the render after the first (use-after-first-render.ts): the first paint
 * shows the element alone, as it looks, and does not wait for the tooltip's floating position, transition and
 * portal, one per alert card (issue 33). Its element is drawn again once wrapped, looking the same.
 */
export function DeferredTooltip({ children, ...props }: TooltipProps) {
  const ready = useAfterFirstRender();
  return ready ? <Tooltip {...props}>{children}</Tooltip> : children;
}
