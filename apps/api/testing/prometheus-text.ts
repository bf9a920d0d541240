/** One sample of Prometheus' text format: `name{label="value",...} 42`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of a Prometheus text exposition (format 0.0.4): comments skipped, label values
 * unescaped (\\, \", \n), values as numbers (NaN, +Inf and -Inf in any case included). Throws on a line it
 * cannot read, so a malformed exposition fails the test that reads it.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (!name) throw new Error(`not a sample: ${line}`);
    let at = name.length;
    const labels: Record<string, string> = {};
    if (line[at] === '{') {
      at += 1;
      while (line[at] !== '}') {
        const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
        if (!label) throw new Error(`bad label in: ${line}`);
        at += label[0].length;
        let value = '';
        for (; line[at] !== '"'; at += 1) {
          if (at >= line.length) throw new Error(`unterminated label value in: ${line}`);
          if (line[at] === '\\') {
            at += 1;
            value += line[at] === 'n' ? '\n' : line[at];
          } else value += line[at];
        }
        labels[label[1]!] = value;
        at += 1;
        if (line[at] === ',') at += 1;
      }
      at += 1;
    }
    const [value] = line.slice(at).trim().split(/\s+/);
    // As Prometheus reads them (Go's ParseFloat): NaN and Inf in any case; prom-client writes Nan.
    const special = { nan: NaN, '+inf': Infinity, inf: Infinity, '-inf': -Infinity }[
      value?.toLowerCase() ?? ''
    ];
    const number = special ?? Number(value);
    if (value === undefined || (Number.isNaN(number) && special === undefined))
      throw new Error(`bad value in: ${line}`);
    samples.push({ name, labels, value: number });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (others ignored); undefined if none. */
export function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** The metrics server's exposition, parsed. */
export async function scrape(metricsAddress: string): Promise<Sample[]> {
  const response = await fetch(`${metricsAddress}/metrics`);
  if (response.status !== 200) throw new Error(`metrics answered ${response.status}`);
  return parsePrometheusText(await response.text());
}
