-- The driver both ports share: `timedMain run` runs the property its one
-- argument names (`run name`, a Lazy SmallCheck `test`, which ends the
-- process at a counterexample) and prints "NAME: X s of CPU time" at exit,
-- also when a counterexample or `timeout -s INT` ends it.
module Timed (timedMain) where

import Control.Exception (finally)
import System.CPUTime (getCPUTime)
import System.Environment (getArgs)
import System.IO (BufferMode (LineBuffering), hFlush, hSetBuffering, stdout)
import Text.Printf (printf)

timedMain :: (String -> IO ()) -> IO ()
timedMain run = do
  [name] <- getArgs
  -- Each depth's line as it completes, also when a timeout ends the run.
  hSetBuffering stdout LineBuffering
  start <- getCPUTime
  let seconds = do
        end <- getCPUTime
        printf "%s: %.4f s of CPU time\n" name (fromIntegral (end - start) / 1e12 :: Double)
        hFlush stdout
  run name `finally` seconds
