import type { ReactNode } from 'react';
import { type ConsoleArea, consolePath } from '../../shared/console-api/pages';
import { useStore } from './stores/atom';
import { $page, isPlainClick, openPage } from './stores/page';

/**
 * A link to a console page: a real address (a new tab, a copied link and a screen reader's link
 * list all work), followed in the page itself on a plain click. `aria-current` marks the link to
 * the page shown, or in the navigation (`area`) to the area it is in.
 */
export function PageLink(props: {
  area: ConsoleArea;
  id?: string | null;
  current?: 'page' | 'area';
  className?: string;
  'aria-label'?: string;
  /** Runs as the link is followed, in this page or not (a search closing its list). */
  onFollow?: () => void;
  children: ReactNode;
}) {
  const page = useStore($page);
  const { area, id = null, current = 'page' } = props;
  const shown = page.area === area && (current === 'area' || page.id === id);
  return (
    <a
      href={consolePath(area, id)}
      className={props.className}
      aria-label={props['aria-label']}
      aria-current={shown ? 'page' : undefined}
      onClick={(event) => {
        props.onFollow?.();
        if (!isPlainClick(event)) return;
        event.preventDefault();
        openPage(area, id);
      }}
    >
      {props.children}
    </a>
  );
}
