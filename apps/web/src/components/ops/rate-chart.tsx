/** A small bar chart of per-minute counts (oldest left), with the latest value and the total. */
export function RateChart({ title, values, minutes, tone }: { title: string; values: number[]; minutes: string[]; tone: string }) {
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const latest = values[values.length - 1] ?? 0;
  const width = 240;
  const height = 44;
  const bar = width / Math.max(1, values.length);
  return (
    <figure className="rate-chart">
      <figcaption>
        <span>{title}</span>
        <span className="small muted">
          <strong className="rate-latest">{latest}</strong>/min now · {total} in {values.length} min
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="img" aria-label={`${title}: ${values.join(", ")} per minute, oldest first`} preserveAspectRatio="none">
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="chart-axis" />
        {values.map((v, i) => {
          const h = v === 0 ? 0 : Math.max(2, (v / max) * (height - 4));
          return (
            <rect key={minutes[i] ?? i} x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} className={`chart-bar tone-fill-${tone}`}>
              <title>
                {minutes[i] ? new Date(minutes[i]!).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""}: {v}
              </title>
            </rect>
          );
        })}
      </svg>
    </figure>
  );
}
