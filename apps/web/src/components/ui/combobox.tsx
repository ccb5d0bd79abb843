'use client';

import { type CSSProperties, type RefObject, useEffect, useId, useState } from 'react';
import { HiddenLabel } from '.';

/** One suggestion: `disabled` ones are listed (so their state is heard) but cannot be chosen. */
export type ComboboxOption = { id: string; label: string; disabled?: boolean; note?: string };

// Inline, as the console's shared stylesheet has no rules for options yet; 28px clears WCAG's
// 24px target size with room for the focus ring.
const OPTION: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  width: '100%',
  minHeight: 28,
  boxSizing: 'border-box',
  textAlign: 'left',
  whiteSpace: 'normal',
};
const ACTIVE: CSSProperties = {
  background: '#ecebfb',
  outline: '2px solid var(--accent)',
  outlineOffset: -2,
};
const DISABLED: CSSProperties = { opacity: 0.55, cursor: 'not-allowed' };

/**
 * A text box with a list of suggestions, after the WAI-ARIA APG combobox pattern (listbox popup,
 * list autocomplete without automatic selection). The focus stays in the text box: Down and Up move
 * the active option (wrapping, shown by aria-activedescendant), Enter chooses it, Escape closes
 * the list and a second Escape clears the text, Tab leaves as usual. A click or tap chooses too.
 * The suggestions come from the caller (`options`, empty while they load), with `status` saying
 * in words what the list cannot (searching, nothing found).
 */
export function Combobox({
  label,
  listLabel,
  text,
  onTextChange,
  options,
  status,
  onChoose,
  placeholder,
  maxLength,
  inputRef,
}: {
  label: string;
  /** The list's own name; not `label`, so a search by that label finds the text box alone. */
  listLabel: string;
  text: string;
  onTextChange: (text: string) => void;
  options: readonly ComboboxOption[];
  status: string;
  onChoose: (id: string) => void;
  placeholder?: string;
  maxLength?: number;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const id = useId();
  const listboxId = `${id}-listbox`;
  const optionId = (option: ComboboxOption) => `${id}-option-${option.id}`;
  const [open, setOpen] = useState(false);
  // By id, not by index: when the answer changes under it, no other option becomes active.
  const [activeId, setActiveId] = useState<string | null>(null);
  const popup = open && text.trim() !== '';
  const expanded = popup && options.length > 0;
  const activeIndex = expanded ? options.findIndex((o) => o.id === activeId) : -1;
  const active = activeIndex >= 0 ? options[activeIndex] : undefined;
  const activeDomId = active ? optionId(active) : undefined;

  useEffect(() => {
    if (activeDomId) document.getElementById(activeDomId)?.scrollIntoView({ block: 'nearest' });
  }, [activeDomId]);

  const close = () => {
    setOpen(false);
    setActiveId(null);
  };
  const choose = (option: ComboboxOption) => {
    if (option.disabled) return;
    close();
    onChoose(option.id);
  };
  const move = (step: 1 | -1) => {
    setOpen(true);
    if (options.length === 0) return;
    const from = popup ? activeIndex : -1;
    // From nothing active, Down goes to the first and Up to the last; both wrap at the ends.
    const next =
      from < 0 ? (step === 1 ? 0 : options.length - 1) : (from + step + options.length) % options.length;
    setActiveId(options[next]!.id);
  };

  return (
    <div className="combobox">
      <HiddenLabel htmlFor={id}>{label}</HiddenLabel>
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeDomId}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={text}
        maxLength={maxLength}
        onChange={(e) => {
          onTextChange(e.target.value);
          setOpen(true);
          setActiveId(null);
        }}
        onBlur={close}
        onKeyDown={(e) => {
          if (e.altKey && e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            move(e.key === 'ArrowDown' ? 1 : -1);
          } else if (e.key === 'Enter') {
            // Never submits the form around it: Enter here is for the suggestions.
            if (text.trim() === '' && !active) return;
            e.preventDefault();
            if (active) choose(active);
          } else if (e.key === 'Escape') {
            if (popup) close();
            else if (text !== '') onTextChange('');
            else return; // nothing left to undo: the Escape is the dialog's (it closes)
            // Used here: a dialog around the box sees it cancelled and stays open.
            e.preventDefault();
          }
        }}
      />
      {/* Always in the page (hidden when closed), so aria-controls always names an element. */}
      <div
        id={listboxId}
        role="listbox"
        aria-label={listLabel}
        className="matches"
        hidden={!expanded}
        // Keeps the focus in the text box when an option is pressed (mouse, and touch's mousedown).
        onMouseDown={(e) => e.preventDefault()}
      >
        {options.map((option) => {
          const isActive = option === active;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the text box's (aria-activedescendant)
            <div
              key={option.id}
              id={optionId(option)}
              role="option"
              tabIndex={-1}
              aria-selected={isActive}
              aria-disabled={option.disabled || undefined}
              className="btn btn-ghost"
              style={{ ...OPTION, ...(isActive ? ACTIVE : {}), ...(option.disabled ? DISABLED : {}) }}
              onClick={() => choose(option)}
            >
              {option.label}
              {option.note && <span className="muted"> {option.note}</span>}
            </div>
          );
        })}
      </div>
      <p role="status" className={popup && !expanded ? 'muted' : 'sr-only'}>
        {popup ? status : ''}
      </p>
    </div>
  );
}
