import './page/console.css';
import { createRoot } from 'react-dom/client';
import { loadAlerts } from './alerts/stores/alerts';
import { followAddress } from './kit/stores/page';
import { loadConsole } from './kit/stores/publishing';
import { $resultsPhase, phaseOfSearch } from './kit/stores/results';
import { Console } from './page/Console';
import { loadTools } from './team/stores/tools';

/**
 * The console's page script (a Vite entry of its own: no funnel page loads it). The page
 * (worker/console/page.ts) is a shell with this root element; everything in it is drawn here.
 */
const root = document.getElementById('console-root');
if (root) {
  followAddress();
  createRoot(root).render(<Console />);
  $resultsPhase.set(phaseOfSearch(location.search));
  void loadConsole();
  void loadAlerts();
  void loadTools();
}
