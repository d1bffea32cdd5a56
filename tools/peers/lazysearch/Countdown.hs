-- The countdown property of `benchmarks::countdown` (tools/src/benchmarks/
-- countdown.rs) for the original NEAT, lazy-search: the same solvers, the
-- same bug, naturals from `size-based` (by bit length). Prints, for each
-- size bound from 0 to MAX, the runs of an exhaustive `searchRaw'` with
-- strategy D and the CPU seconds that bound took:
--
--   countdown sound|buggy MAX      ->  "bound N runs K cpu S" per bound
--
-- `versus_lazy_search --peer <this binary>` runs it beside neatcheck and
-- checks that the runs agree at every bound.
module Main (main) where

import Control.Monad (forM_)
import Control.Search
import Data.List (permutations, subsequences)
import System.CPUTime (getCPUTime)
import System.Environment (getArgs)
import System.IO (BufferMode (LineBuffering), hSetBuffering, stdout)
import Text.Printf (printf)

newtype Nat = Nat Int deriving (Eq, Ord, Show)

instance Enumerable Nat where
  enumerate = share (Nat . fromInteger <$> naturals)

data Op = Add | Sub | Mul | Div deriving (Eq, Enum, Bounded)

applyAny :: Op -> Int -> Int -> Maybe Int
applyAny Add x y = Just (x + y)
applyAny Sub x y = if x > y then Just (x - y) else Nothing
applyAny Mul x y = Just (x * y)
applyAny Div x y = if y /= 0 && x `mod` y == 0 then Just (x `div` y) else Nothing

-- The buggy pruning excludes the product of two equal numbers.
applyPruned :: Bool -> Op -> Int -> Int -> Maybe Int
applyPruned buggy op x y = if allowed op then applyAny op x y else Nothing
  where
    allowed Add = x <= y
    allowed Sub = x > y
    allowed Mul = x /= 1 && y /= 1 && (if buggy then x < y else x <= y)
    allowed Div = y /= 1 && y /= 0 && x `mod` y == 0

results :: (Op -> Int -> Int -> Maybe Int) -> [Int] -> [Int]
results _ [] = []
results _ [n] = [n | n > 0]
results apply ns =
  [ r
  | cut <- [1 .. length ns - 1],
    let right = results apply (drop cut ns),
    x <- results apply (take cut ns),
    y <- right,
    op <- [minBound .. maxBound],
    Just r <- [apply op x y]
  ]

solvable :: (Op -> Int -> Int -> Maybe Int) -> [Int] -> Int -> Bool
solvable apply ns target =
  any (elem target . results apply) (concatMap permutations (subsequences ns))

complete :: Bool -> ([Nat], Nat) -> Bool
complete buggy (ns, Nat target)
  | length ns > 4 = True
  | otherwise =
      let ns' = [n | Nat n <- ns]
       in not (solvable applyAny ns' target) || solvable (applyPruned buggy) ns' target

main :: IO ()
main = do
  [which, maxBound'] <- getArgs
  hSetBuffering stdout LineBuffering
  let buggy = which == "buggy"
  forM_ [0 .. read maxBound'] $ \n -> do
    start <- getCPUTime
    outcomes <- searchRaw' D n (complete buggy)
    let runs = length outcomes
    end <- runs `seq` getCPUTime
    printf "bound %d runs %d cpu %.6f\n" n runs (fromIntegral (end - start) / 1e12 :: Double)
