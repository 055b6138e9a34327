// Importing this module registers every operation and algorithm.
import './p2p/pingpong.ts';
