import { within } from '@testing-library/dom'
import { flushSync, mount, unmount } from 'svelte'
import type { Component } from 'svelte'

const mounted: (() => void)[] = []

/**
 * Mounts `component` with `props` into a fresh element of the document and runs its effects,
 * as the console does; answers the Testing Library queries bound to that element.
 */
export function render<Props extends Record<string, unknown>>(
  component: Component<Props, object, keyof Props | ''>,
  props: Props,
) {
  const target = document.body.appendChild(document.createElement('div'))
  const instance = mount(component, { target, props })
  flushSync()
  mounted.push(() => {
    void unmount(instance)
    target.remove()
  })
  return { target, ...within(target) }
}

/** Unmounts what {@link render} mounted (in `afterEach`). */
export function cleanup(): void {
  for (const undo of mounted.splice(0)) undo()
}

/**
 * Lets every pending promise callback run (a macrotask comes after all microtasks), then
 * applies the state they changed to the DOM: what a user sees once a callback has answered.
 */
export async function settled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0))
  flushSync()
}

/** A promise the test resolves or rejects when it chooses, to see the component in between. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
