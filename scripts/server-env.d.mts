export declare const SERVER_ENV: Readonly<Record<string, string>>;
export declare const SERVER_NODE_ARGS: string[];
