// Loaded on demand: Chart.js is only downloaded when a station page shows its statistics.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { StackedDays } from '../lib/statsData';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const PALETTE = [
  '#42a5f5',
  '#66bb6a',
  '#ffa726',
  '#ab47bc',
  '#ef5350',
  '#26c6da',
  '#d4e157',
  '#8d6e63',
  '#ec407a',
  '#78909c',
];

export default function StatsChartCanvas({ data }: { data: StackedDays }) {
  return (
    <Bar
      aria-label="Packets per day in the last 30 days, stacked by satellite"
      role="img"
      data={{
        labels: data.days.map((d) => d.slice(5)),
        datasets: data.series.map((s, i) => ({
          label: s.satellite,
          data: s.counts,
          backgroundColor: PALETTE[i % PALETTE.length],
          stack: 'packets',
        })),
      }}
      options={{
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
        plugins: { legend: { position: 'bottom' } },
      }}
    />
  );
}
