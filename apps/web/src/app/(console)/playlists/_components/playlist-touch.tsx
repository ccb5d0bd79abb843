'use client';

import { type PointerEvent, useRef, useState } from 'react';

/** A row dragged by touch or pen: from where, to where it would go now (playlist positions). */
export interface TouchDrag {
  pointerId: number;
  from: number;
  to: number;
}

/** The attribute a row carries with the position it shows (while dragging: where it would go). */
const POSITION_ATTRIBUTE = 'data-playlist-position';

/** How near the window's top or bottom edge a dragging finger scrolls the page, and by how much. */
const EDGE = 56;
const SCROLL_STEP = 16;

/**
 * The position a finger at (x, y) asks for: the row under it, once the finger is past that
 * row's middle (so rows of different heights do not swap back and forth), else `current`.
 */
function positionAt(x: number, y: number, current: number): number {
  const row = document.elementFromPoint(x, y)?.closest<HTMLElement>(`[${POSITION_ATTRIBUTE}]`);
  if (!row) return current;
  const position = Number(row.getAttribute(POSITION_ATTRIBUTE));
  if (!Number.isInteger(position) || position === current) return current;
  const box = row.getBoundingClientRect();
  const middle = box.top + box.height / 2;
  if (position > current) return y > middle ? position : position - 1;
  return y < middle ? position : position + 1;
}

/**
 * Reordering by touch (and pen), which has no HTML drag and drop: Pointer Events on a row's
 * handle (its CSS says `touch-action: none`, so the finger drags the row, not the page). Moving
 * the finger over the rows shows the new order at once; lifting it calls `onDrop`, the same
 * reorder as the mouse's drop. The mouse keeps the rows' native drag and drop.
 *
 * While the finger is down the rows keep their DOM order and only their CSS `order` changes:
 * moving the dragged row's node would release the handle's pointer capture.
 */
export function useTouchReorder(onDrop: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<TouchDrag | null>(null);
  // Pointer events come faster than renders: the latest drag, for the next event to read.
  const latest = useRef<TouchDrag | null>(null);
  const update = (next: TouchDrag | null) => {
    latest.current = next;
    setDrag(next);
  };
  const ours = (event: PointerEvent) => latest.current?.pointerId === event.pointerId;

  function handleProps(index: number) {
    return {
      onPointerDown(event: PointerEvent<HTMLButtonElement>) {
        // A second finger is not primary; a new first one replaces a drag whose end never came.
        if (event.pointerType === 'mouse' || !event.isPrimary) return;
        try {
          event.currentTarget.setPointerCapture(event.pointerId);
        } catch {
          // A pointer the browser does not know (a synthetic event): its events come here anyway.
        }
        update({ pointerId: event.pointerId, from: index, to: index });
      },
      onPointerMove(event: PointerEvent<HTMLButtonElement>) {
        const current = latest.current;
        if (!current || !ours(event)) return;
        event.preventDefault();
        const to = positionAt(event.clientX, event.clientY, current.to);
        if (to !== current.to) update({ ...current, to });
        if (event.clientY < EDGE) window.scrollBy(0, -SCROLL_STEP);
        else if (event.clientY > window.innerHeight - EDGE) window.scrollBy(0, SCROLL_STEP);
      },
      onPointerUp(event: PointerEvent<HTMLButtonElement>) {
        const current = latest.current;
        if (!current || !ours(event)) return;
        update(null);
        if (current.to !== current.from) onDrop(current.from, current.to);
      },
      onPointerCancel(event: PointerEvent<HTMLButtonElement>) {
        if (ours(event)) update(null);
      },
    };
  }

  /** Where the row at `index` shows: the dragged row at its target, the rows between shifted by one. */
  function position(index: number): number {
    if (!drag) return index;
    const { from, to } = drag;
    if (index === from) return to;
    if (from < to && index > from && index <= to) return index - 1;
    if (from > to && index >= to && index < from) return index + 1;
    return index;
  }

  return { drag, handleProps, position };
}
