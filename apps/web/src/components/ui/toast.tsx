'use client';

import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import './toast.css';

/** How long a message stays, unless the pointer or the focus is on the messages. */
const SHOWN_MS = 6000;

interface Message {
  id: number;
  text: string;
}

/** Shows a message in the console's toasts; a no-op outside a ToastProvider. */
type Notify = (text: string) => void;

const ToastContext = createContext<Notify>(() => {});

/** The console's `notify(text)`: confirmations of what just happened, without taking the focus. */
export function useToast(): Notify {
  return useContext(ToastContext);
}

/** What a record is called, for a message: its title, its name or its username, when it has one. */
export function recordName(record: unknown): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const { title, name, username } = record as Record<string, unknown>;
  const found = [title, name, username].find((value) => typeof value === 'string' && value.trim() !== '');
  return (found as string | undefined) ?? null;
}

/** "Created “Blue Hour”.", or "Created." for a record without a name. */
export function doneMessage(verb: string, record: unknown): string {
  const name = recordName(record);
  return name ? `${verb} “${name}”.` : `${verb}.`;
}

/**
 * The messages' one polite live region (role="status"), present from the start so screen readers
 * announce what is added to it. Messages never take the focus: a keyboard user stays where they
 * were, and can still reach a message's Close button. They hide after SHOWN_MS, but not while
 * hovered or focused, so nobody loses one they are reading.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const nextId = useRef(0);
  const notify = useCallback((text: string) => {
    nextId.current += 1;
    const id = nextId.current;
    setMessages((current) => [...current, { id, text }]);
  }, []);
  const dismiss = useCallback((id: number) => {
    setMessages((current) => current.filter((message) => message.id !== id));
  }, []);
  const paused = hovered || focused;

  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="toasts"
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
        }}
      >
        {messages.map((message) => (
          <Toast key={message.id} message={message} paused={paused} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function Toast({
  message,
  paused,
  onDismiss,
}: {
  message: Message;
  paused: boolean;
  onDismiss: (id: number) => void;
}) {
  useEffect(() => {
    // A paused message gets its full time again once left: it was being read.
    if (paused) return;
    const timer = window.setTimeout(() => onDismiss(message.id), SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [paused, message.id, onDismiss]);
  return (
    <div className="toast">
      <p className="toast-text">{message.text}</p>
      <button type="button" className="toast-close" aria-label="Close" onClick={() => onDismiss(message.id)}>
        ×
      </button>
    </div>
  );
}
