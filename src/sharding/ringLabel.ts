/** The label of every member Lease of a ring, in both modes; its value is the ring's name. */
export const ringLabel = 'sharding.rx-informer.dev/ring';
