import { useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MotionStyle } from './motion.ts';

/**
 * Replays the entering animation of the chosen style whenever the path changes. The
 * stylesheet turns the animation off under `prefers-reduced-motion`.
 */
export function PageTransition({
  style,
  durationMs,
  children,
}: {
  style: MotionStyle;
  durationMs: number;
  children: ReactNode;
}) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  return (
    <div
      key={pathname}
      className="fm-page"
      data-motion={durationMs > 0 ? style : 'none'}
      style={{ animationDuration: `${durationMs}ms` }}
    >
      {children}
    </div>
  );
}
