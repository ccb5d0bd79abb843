'use client';

import { type CSSProperties, type RefObject, useEffect, useId, useState } from 'react';
import { HiddenLabel } from '.';

/**
 * One suggestion: `disabled` ones are listed (so their state is heard) but cannot be chosen.
 * `note` follows the label on its line; `detail` is a line of its own under it (what the option
 * is), read as the option's description. Options with a `group` are listed under that group's
 * name, in runs: give a group's options one after another.
 */
export type ComboboxOption = {
  id: string;
  label: string;
  disabled?: boolean;
  note?: string;
  detail?: string;
  group?: string;
};

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
  background: 'var(--accent-soft)',
  outline: '2px solid var(--accent)',
  outlineOffset: -2,
};
const DISABLED: CSSProperties = { opacity: 0.55, cursor: 'not-allowed' };
const WITH_DETAIL: CSSProperties = { flexDirection: 'column', alignItems: 'flex-start' };

/**
 * Whether a pointer (mouse, pen, finger) is pressed now, anywhere in the page. A text box losing
 * the focus to a press elsewhere closes its list only once the press is released: closing it at
 * once moved what lay below it (the dialog's buttons) up from under the pointer between press
 * and release, and the click, "Create song" say, was lost without a word.
 */
let pressing = false;
if (typeof document !== 'undefined') {
  const track = (down: boolean) => () => {
    pressing = down;
  };
  document.addEventListener('pointerdown', track(true), true);
  document.addEventListener('pointerup', track(false), true);
  document.addEventListener('pointercancel', track(false), true);
}

/** Runs `then` after the press now under way is released and its click has been handled. */
function afterPress(then: () => void) {
  const done = () => {
    document.removeEventListener('pointerup', done, true);
    document.removeEventListener('pointercancel', done, true);
    // The click follows the release in the same task: after it, the list may go.
    setTimeout(then, 0);
  };
  document.addEventListener('pointerup', done, true);
  document.addEventListener('pointercancel', done, true);
}

/** The options in runs of one group each (a run without a group is listed as it is). */
function groupRuns(options: readonly ComboboxOption[]) {
  const runs: Array<{ group: string | undefined; options: ComboboxOption[] }> = [];
  for (const option of options) {
    const last = runs.at(-1);
    if (last && last.group === option.group) last.options.push(option);
    else runs.push({ group: option.group, options: [option] });
  }
  return runs;
}

/**
 * A text box with a list of suggestions, after the WAI-ARIA APG combobox pattern (listbox popup,
 * list autocomplete without automatic selection). The focus stays in the text box: Down and Up move
 * the active option (wrapping, shown by aria-activedescendant), Enter chooses it, Escape closes
 * the list and a second Escape clears the text, Tab leaves as usual. A click or tap chooses too.
 * The suggestions come from the caller (`options`, empty while they load), with `status` saying
 * in words what the list cannot (searching, nothing found). With `onSubmit`, Enter while no
 * option is active hands it the text (a search's full results). Grouped options are listed
 * under their group's visible name (`role="group"`), and Down and Up run on across groups.
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
  onSubmit,
  className,
  invalid,
  describedBy,
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
  onSubmit?: (text: string) => void;
  className?: string;
  /** The box's field is in error (a form focuses the first such control after a refused submit). */
  invalid?: boolean;
  /** The id of what describes the box (its field's error). */
  describedBy?: string | undefined;
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

  const renderOption = (option: ComboboxOption) => {
    const isActive = option === active;
    const detailId = option.detail ? `${optionId(option)}-detail` : undefined;
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the text box's (aria-activedescendant)
      <div
        key={option.id}
        id={optionId(option)}
        role="option"
        tabIndex={-1}
        aria-selected={isActive}
        aria-disabled={option.disabled || undefined}
        aria-describedby={detailId}
        className="btn btn-ghost"
        style={{
          ...OPTION,
          ...(option.detail ? WITH_DETAIL : {}),
          ...(isActive ? ACTIVE : {}),
          ...(option.disabled ? DISABLED : {}),
        }}
        onClick={() => choose(option)}
      >
        {/* Names are anyone's text: <bdi> keeps a right-to-left one from reordering what follows. */}
        <span>
          <bdi>{option.label}</bdi>
          {option.note && <span className="muted"> {option.note}</span>}
        </span>
        {option.detail && (
          <span id={detailId} className="muted option-detail">
            {option.detail}
          </span>
        )}
      </div>
    );
  };

  return (
    <div className={className ? `combobox ${className}` : 'combobox'}>
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
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
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
        onBlur={() => (pressing ? afterPress(close) : close())}
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
            else if (onSubmit && text.trim() !== '') {
              close();
              onSubmit(text.trim());
            }
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
        {groupRuns(options).map((run, i) =>
          run.group === undefined ? (
            run.options.map(renderOption)
          ) : (
            // The APG's grouped listbox: the group is named by its visible heading. A <fieldset>
            // has no place in a listbox.
            // biome-ignore lint/a11y/useSemanticElements: a listbox holds options and groups of them only
            <div key={run.options[0]!.id} role="group" aria-labelledby={`${id}-group-${i}`}>
              <div role="presentation" id={`${id}-group-${i}`} className="matches-group">
                {run.group}
              </div>
              {run.options.map(renderOption)}
            </div>
          ),
        )}
      </div>
      <p role="status" className={popup && !expanded ? 'muted' : 'sr-only'}>
        {popup ? status : ''}
      </p>
    </div>
  );
}
