import { BarController, BarElement, CategoryScale, Chart, type ChartConfiguration, Legend, LinearScale, Tooltip } from 'chart.js';

/**
 * chart.js, only the parts the console draws with (bars on categories, a legend and tooltips): the bundle carries
 * what a page that imports this module uses, and nothing of chart.js when none does.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export type BarChartConfig = ChartConfiguration<'bar'>;

/** Draws a bar chart on the canvas; `destroy()` the answer before drawing on it again. */
export function drawBarChart(canvas: HTMLCanvasElement, config: BarChartConfig): Chart<'bar'> {
  return new Chart(canvas, config);
}
