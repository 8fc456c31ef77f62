import { useStore } from '@nanostores/react';
import { LoadingOverlay } from './kit/LoadingOverlay';
import { $loader } from './stores/loader';

/**
 * The page's global loading overlay (SPEC.md §2): any island turns it on with setLoading().
 * $loader is not persisted, so the server's render (off) is also the browser's first.
 */
export default function LoadingOverlayIsland({ label }: { label: string }) {
  const { enabled, message } = useStore($loader);
  return <LoadingOverlay enabled={enabled} message={message} label={label} />;
}
