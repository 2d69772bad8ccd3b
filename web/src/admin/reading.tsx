/**
 * Admin → Reading: the server's reading statistics (issue 35 point 4). The section's code and its charting
 * package load only when it is opened, so the rest of the admin screens do not carry them.
 */
import { Async, useAsync } from '../components/async';

export function ReadingSection() {
  const module = useAsync(() => import('../statistics/server-statistics'), []);
  return <Async state={module}>{({ ServerStatistics }) => <ServerStatistics />}</Async>;
}
