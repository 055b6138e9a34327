import { describePropertyShard } from './property-shards.ts';

describePropertyShard(0);
