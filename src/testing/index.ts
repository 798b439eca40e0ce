/* rx-informer/testing: builders, fakes and helpers for tests of informers and of code built on them. */
export {};
