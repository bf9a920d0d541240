import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The address's query, and a way to set it (a new history entry, so Back returns to it). Not React
 * Router's useSearchParams: its code would land in the borrower's first load, where the router lives.
 */
export function useQuery(): [URLSearchParams, (next: URLSearchParams | Record<string, string>) => void] {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: URLSearchParams | Record<string, string>) => {
      const query = new URLSearchParams(next).toString();
      void navigate(query ? `${pathname}?${query}` : pathname);
    },
    [navigate, pathname],
  );
  return [params, setParams];
}
