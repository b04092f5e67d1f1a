package racy

import "testing"

func TestHandoff(t *testing.T)    { Handoff(new(State)) }
func TestCallResult(t *testing.T) { CallResult(new(State)) }
func TestMultiValue(t *testing.T) { MultiValue(new(State)) }
func TestSpinLock(t *testing.T)   { SpinLock(new(State)) }
func TestPublish(t *testing.T)    { Publish(new(State)) }
func TestOnce(t *testing.T)       { Once(new(State)) }
func TestLocker(t *testing.T)     { Locker(new(State)) }
func TestCond(t *testing.T)       { Cond(new(State)) }
func TestWaitGroup(t *testing.T)  { WaitGroup(new(State)) }
func TestClose(t *testing.T)      { Close(new(State)) }
func TestCancel(t *testing.T)     { Cancel(new(State)) }
func TestMap(t *testing.T)        { Map(new(State)) }
func TestSemaphore(t *testing.T)  { Semaphore(new(State)) }
