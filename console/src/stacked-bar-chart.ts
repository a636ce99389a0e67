import { useEffect, useRef, useState } from 'preact/hooks';

/** A colour a series, told apart without colour too: each page's totals list names each. */
const PALETTE = ['#0b5cad', '#c0392b', '#1f6f43', '#8a6d00', '#6f42c1', '#d35400', '#2c7a7b', '#6b7480'];

/** What a stacked bar chart draws: a bar a day, a series stacked in each. */
export interface StackedBars {
  days: string[];
  series: { label: string; values: number[] }[];
}

/**
 * The chart drawn on the canvas, again whenever it changes; chart.js's error, if it fails. chart.js comes with the
 * pages that draw only: the console's first page stays small.
 */
export function useStackedBarChart(chart: StackedBars) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawError, setDrawError] = useState<unknown>();
  useEffect(() => {
    let live = true;
    let drawn: { destroy(): void } | undefined;
    import('./charts.ts').then(({ drawBarChart }) => {
      if (!live || !canvas.current) return;
      drawn = drawBarChart(canvas.current, {
        type: 'bar',
        data: {
          labels: chart.days,
          datasets: chart.series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: PALETTE[i % PALETTE.length] })),
        },
        options: {
          animation: false,
          maintainAspectRatio: false,
          scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } },
          plugins: { legend: { position: 'bottom' } },
        },
      });
    }, setDrawError);
    return () => {
      live = false;
      drawn?.destroy();
    };
  }, [chart]);
  return { canvas, drawError };
}
