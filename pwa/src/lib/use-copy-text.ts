// Copy to the clipboard with a short-lived outcome, for the Copy buttons beside the booking link and
// the calendar feed addresses: "ok" or "failed" shows for three seconds, then clears.
import { useCallback, useEffect, useState } from 'react';

/** Copies `text`; falls back to a hidden textarea where the Clipboard API is missing or refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }
}

export type CopyOutcome = 'ok' | 'failed' | null;

/** The outcome of the last copy (cleared after three seconds), a copy function, and a reset. */
export function useCopyText(): { copied: CopyOutcome; copy: (text: string) => void; reset: () => void } {
  const [copied, setCopied] = useState<CopyOutcome>(null);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 3000);
    return () => clearTimeout(t);
  }, [copied]);

  const copy = useCallback((text: string) => {
    copyText(text).then(
      () => setCopied('ok'),
      () => setCopied('failed'),
    );
  }, []);
  const reset = useCallback(() => setCopied(null), []);
  return { copied, copy, reset };
}
