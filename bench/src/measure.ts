/** What a load run sends and what it measures: shared by the load generators and the report. */
export interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** User + system CPU of the server process over the run, per completed request. */
  cpuUsPerReq: number;
  /** CPU of the database's backend processes serving the run, per completed request. */
  dbCpuUsPerReq: number;
  /** Highest resident set size of the server process seen during the run (sampled every 100 ms). */
  peakRssMb: number;
  errors: number;
  non2xx: number;
}
