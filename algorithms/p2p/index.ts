// Importing this module registers every point-to-point benchmark and its algorithms.
import './pingpong.ts';
import './pingpong-transports.ts';
import './pingping.ts';
import './onetoall.ts';
import './alltoall-pairs.ts';
import './knem-copy.ts';
