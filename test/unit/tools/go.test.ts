import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configSchema } from '../../../src/config/schema.js'
import { planSources } from '../../helpers/plan-helpers.js'
import { go } from '../../../src/tools/go.js'
import { contextIn, folderWith, rewrite } from '../../helpers/tool-cases.js'

const M = 'https://goproxy.test'

describe('go: rewriting', () => {
  it('sets GOPROXY=<mirror>,direct', () => expect(rewrite(go, 'go mod download', M)).toBe('GOPROXY=https://goproxy.test,direct go mod download'))
  it('drops a trailing slash', () => expect(rewrite(go, 'go get example.com/m@v1.0.0', 'https://mirrors.aliyun.com/goproxy/'))
    .toBe('GOPROXY=https://mirrors.aliyun.com/goproxy,direct go get example.com/m@v1.0.0'))
  it('adds nothing but the proxy', () => expect(rewrite(go, 'go install x@latest', M)).toBe('GOPROXY=https://goproxy.test,direct go install x@latest'))
  it('leaves go run alone', () => expect(rewrite(go, 'go run .', M)).toBe('go run .'))
})

describe('go: classify', () => {
  const classify = (args: string) => go.classify(args.split(' ').filter(Boolean))
  it.each(['get x', 'install x@latest', 'build ./...', 'mod download', 'mod tidy', 'work sync', '-C sub mod download'])('%s is network', args => expect(classify(args)).toBe('network'))
  it.each(['', 'run .', 'test ./...', 'env GOPROXY', 'version', 'mod why x', 'mod verify', 'build -mod=vendor ./...', 'fmt ./...'])('"%s" is local', args => expect(classify(args)).toBe('local'))
})

describe('go: the user proxy choice', () => {
  const home = folderWith()
  const index = (env: NodeJS.ProcessEnv) => go.findUserIndex(contextIn(home, 'mod download', env, home))
  const plan = (env: NodeJS.ProcessEnv) => planSources({ adapter: go, config: configSchema.parse({}), userIndex: index(env) })
  it('has no choice by default', () => expect(index({})).toBeNull())
  it('treats the default list as the upstream: mirrors allowed', () => expect(plan({ GOPROXY: 'https://proxy.golang.org,direct' }).fallbacks.length).toBeGreaterThan(0))
  it('never replaces a private proxy, wherever it stands in the list', () => {
    expect(index({ GOPROXY: 'https://goproxy.cn|https://athens.corp.test,direct' })?.url).toBe('https://athens.corp.test')
    expect(plan({ GOPROXY: 'https://athens.corp.test,https://proxy.golang.org,direct' }).fallbacks).toEqual([])
  })
  it('treats off, direct and -mod=vendor as offline or local', () => {
    expect(index({ GOPROXY: 'off' })?.url).toBe('none')
    expect(index({ GOPROXY: 'direct' })?.url).toBe('direct')
    expect(index({ GOFLAGS: '-mod=vendor' })?.url).toBe('none')
    expect(plan({ GOPROXY: 'direct' }).fallbacks).toEqual([])
  })
  it('reads the go env -w file ($GOENV or the user config dir)', () => {
    const file = join(folderWith({ env: 'GOPRIVATE=corp.test\nGOPROXY=https://athens.corp.test\n' }), 'env')
    expect(index({ GOENV: file })).toEqual({ url: 'https://athens.corp.test', origin: `GOPROXY in ${file}` })
    const xdg = folderWith({ 'go/env': 'GOPROXY=https://goproxy.cn,direct\n' })
    expect(index({ XDG_CONFIG_HOME: xdg })?.url).toBe('https://goproxy.cn')
    expect(index({ XDG_CONFIG_HOME: xdg, GOENV: 'off' })).toBeNull()
  })
  it('lets the environment win over the file', () => {
    const xdg = folderWith({ 'go/env': 'GOPROXY=https://athens.corp.test\n' })
    expect(index({ XDG_CONFIG_HOME: xdg, GOPROXY: 'https://goproxy.io' })?.url).toBe('https://goproxy.io')
  })
  it('escapes capitals in module paths', () => expect(go.packageUrl!('https://p.test/', 'github.com/BurntSushi/toml')).toBe('https://p.test/github.com/!burnt!sushi/toml/@v/list'))
})
