// Sets the browser tab title while a page is shown.
import { useEffect } from 'react';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title.includes('Bookwell') ? title : `${title} · Bookwell`;
  }, [title]);
}
