{-# LANGUAGE BangPatterns #-}
-- Shared driver of the lazy-search benchmark ports (RegExp.hs, Typecheck.hs).
module Common (Nat(..), eqNat, runAll, runCtrex, mainWith) where

import Control.Search
import System.CPUTime
import System.Environment
import System.IO
import Data.List (foldl')
import Data.Typeable

-- | Peano naturals: Z has size 1, S n has size 1 + size n.
data Nat = Z | S Nat deriving (Show, Eq, Typeable)

-- | eqNat(a, b): reads a, then b.
eqNat :: Nat -> Nat -> Bool
eqNat a b = case a of
  Z    -> case b of { Z -> True;  S _ -> False }
  S a1 -> case b of { Z -> False; S b1 -> eqNat a1 b1 }

cpuSeconds :: IO Double
cpuSeconds = fmap (\t -> fromIntegral t / 1e12) getCPUTime

-- | all mode: search the predicate to completion at each bound 0..maxB;
-- prints bound, tests, hits, CPU seconds of this bound, cumulative CPU seconds.
runAll :: (Enumerable a, Coolean c) => Options -> Int -> (a -> c) -> IO ()
runAll o maxB p = go 0 0
  where
    go n cum | n > maxB = return ()
    go n cum = do
      t0 <- cpuSeconds
      xs <- searchRaw' o n p
      let (tests, hits) = foldl' (\(!t, !h) (b, _) -> (t + 1, if b then h + 1 else h)) (0 :: Int, 0 :: Int) xs
      tests `seq` hits `seq` return ()
      t1 <- cpuSeconds
      let dt = t1 - t0
          cum' = cum + dt
      putStrLn (unwords [show n, show tests, show hits, showF dt, showF cum'])
      hFlush stdout
      go (n + 1) cum'

-- | ctrex mode: iterative deepening on `not p`; tests counted up to and
-- including the first execution returning true.
runCtrex :: (Enumerable a, Show a) => Int -> (a -> Bool) -> IO ()
runCtrex maxB p = go 0 0 0
  where
    go n cum tot | n > maxB = putStrLn ("no counterexample up to bound " ++ show maxB ++ ", total tests " ++ show tot)
    go n cum tot = do
      t0 <- cpuSeconds
      xs <- searchRaw' D n (not . p)
      let walk !k [] = (k, Nothing)
          walk !k ((b, a) : rest) | b = (k + 1, Just a)
                                  | otherwise = walk (k + 1) rest
          (tests, found) = walk (0 :: Int) xs
      tests `seq` return ()
      t1 <- cpuSeconds
      let cum' = cum + (t1 - t0)
          tot' = tot + tests
      putStrLn (unwords [show n, show tests, showF (t1 - t0), showF cum'])
      hFlush stdout
      case found of
        Just a  -> putStrLn ("counterexample at bound " ++ show n ++ " after " ++ show tests
                             ++ " tests (" ++ show tot' ++ " in total): " ++ show a)
        Nothing -> go (n + 1) cum' tot'

showF :: Double -> String
showF d = let m = round (d * 1000) :: Integer
              (i, f) = m `divMod` 1000
          in show i ++ "." ++ pad (show f)
  where pad s = replicate (3 - length s) '0' ++ s

-- | Command line: MAXBOUND [all|ctrex] [strategy]
mainWith :: (Int -> Options -> IO ()) -> (Int -> IO ()) -> IO ()
mainWith allMode ctrexMode = do
  args <- getArgs
  case args of
    [b]                 -> allMode (read b) D
    [b, "all"]          -> allMode (read b) D
    [b, "all", s]       -> allMode (read b) (read s)
    [b, "ctrex"]        -> ctrexMode (read b)
    _ -> hPutStrLn stderr "usage: PROG MAXBOUND [all [D|O|F|OF|OS|OSF] | ctrex]"
